/** Timestamps as SPEC.md prints them: event results with `+00:00`, inventory records with a trailing `Z`. */
export const withoutMillis = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, '');

export const utcWithOffset = (date: Date): string => `${withoutMillis(date)}+00:00`;

export const utcWithZ = (date: Date): string => `${withoutMillis(date)}Z`;
