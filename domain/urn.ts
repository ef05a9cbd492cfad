/**
 * Service-generated URNs, GDST/GS1 style (DESIGN.md, URNs). Caller ids are percent-encoded where they
 * hold characters a URN's namespace-specific string may not carry, so every id maps to one URN.
 */
const encodePart = (value: string): string =>
  value.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@]/gu, (c) =>
    Array.from(Buffer.from(c, 'utf8'), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );

/** `urn:gdst:<domain>:<kind>:<account>.<id>`. */
const gdstUrn =
  (kind: string) =>
  (domain: string, account: string, id: string): string =>
    `urn:gdst:${domain}:${kind}:${encodePart(account)}.${encodePart(id)}`;

export const tradePartnerUrn = gdstUrn('party');
export const locationUrn = gdstUrn('location:loc');
export const productUrn = gdstUrn('product:class');

export const eventUrn = (eventId: string): string => `urn:uuid:${eventId}`;
