/**
 * Every error body leaves the service through api/middleware/error-handler.ts; handlers throw these.
 * A problem body (RFC 9457 problem details) gets the request's traceId added on the way out.
 */
const SECTION: Record<number, string> = {
  400: '15.5.1',
  401: '15.5.2',
  403: '15.5.4',
  404: '15.5.5',
  405: '15.5.6',
  409: '15.5.10',
  413: '15.5.14',
  415: '15.5.16',
  422: '15.5.21',
  500: '15.6.1',
  503: '15.6.4',
};

export const problemType = (status: number): string =>
  status === 429
    ? 'https://tools.ietf.org/html/rfc6585#section-4' // not an RFC 9110 status
    : `https://tools.ietf.org/html/rfc9110#section-${SECTION[status] ?? (status >= 500 ? '15.6.1' : '15.5.1')}`;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    /** Problem bodies get a traceId; other bodies (documented plain shapes) are sent as they are. */
    readonly isProblem: boolean,
    message?: string,
  ) {
    super(message ?? (typeof body === 'string' ? body : `HTTP ${status}`));
  }
}

export function problem(status: number, title: string, extra: Record<string, unknown> = {}): ApiError {
  return new ApiError(status, { type: problemType(status), title, status, ...extra }, true, title);
}

/** 400 with ASP.NET-style `errors: { field: [messages] }`, the shape SPEC.md shows for a missing key. */
export function validationProblem(
  errors: Record<string, string[]>,
  title = 'One or more validation errors occurred.',
): ApiError {
  return problem(400, title, { errors });
}

/**
 * A date-time query parameter as a Date, or a 400 naming it: RFC 3339 (and so the schema's `date-time`)
 * allows a leap second (23:59:60), which JavaScript's Date cannot hold.
 */
export function queryTime(field: string, value: string | undefined): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const time = new Date(value);
  if (Number.isNaN(time.getTime()))
    throw validationProblem({ [field]: [`${field} ${value} is not a time this service can compare with.`] });
  return time;
}

export const badRequest = (title: string): ApiError => problem(400, title);
export const notFound = (title: string): ApiError => problem(404, title);
export const conflict = (title: string): ApiError => problem(409, title);

/** A documented body shape that is not problem details (SPEC.md's plain JSON strings, four-key bodies). */
export const rawError = (status: number, body: unknown): ApiError => new ApiError(status, body, false);
