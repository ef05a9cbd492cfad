/**
 * Service-generated URNs, GDST/GS1 style (DESIGN.md, URNs). Caller ids are percent-encoded where they
 * hold characters a URN's namespace-specific string may not carry, so every id maps to one URN.
 */
const encodePart = (value: string): string =>
  value.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@]/gu, (c) =>
    Array.from(Buffer.from(c, 'utf8'), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );

const scoped = (account: string, id: string) => `${encodePart(account)}.${encodePart(id)}`;

export const tradePartnerUrn = (domain: string, account: string, id: string): string =>
  `urn:gdst:${domain}:party:${scoped(account, id)}`;

export const locationUrn = (domain: string, account: string, id: string): string =>
  `urn:gdst:${domain}:location:loc:${scoped(account, id)}`;

export const productUrn = (domain: string, account: string, id: string): string =>
  `urn:gdst:${domain}:product:class:${scoped(account, id)}`;

export const eventUrn = (eventId: string): string => `urn:uuid:${eventId}`;
