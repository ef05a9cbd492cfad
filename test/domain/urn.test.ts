import { eventUrn, locationUrn, productUrn, tradePartnerUrn } from '../../domain/urn';

describe('service URNs (DESIGN.md)', () => {
  it('follow the GDST shapes under the configured domain', () => {
    expect(tradePartnerUrn('traceability.local', 'acme', 'TP-1')).toBe('urn:gdst:traceability.local:party:acme.TP-1');
    expect(locationUrn('traceability.local', 'acme', 'LOC-1')).toBe(
      'urn:gdst:traceability.local:location:loc:acme.LOC-1',
    );
    expect(productUrn('example.org', 'acme', 'SKU 9')).toBe('urn:gdst:example.org:product:class:acme.SKU%209');
    expect(eventUrn('0b7f1f5e-1111-4222-8333-944444444444')).toBe('urn:uuid:0b7f1f5e-1111-4222-8333-944444444444');
  });

  it('encode characters a URN cannot carry, so distinct ids never share a URN', () => {
    expect(productUrn('d', 'a', 'x/y')).toBe('urn:gdst:d:product:class:a.x%2Fy');
    expect(productUrn('d', 'a', 'x%2Fy')).toBe('urn:gdst:d:product:class:a.x%252Fy');
    expect(productUrn('d', 'a', 'é#?')).toBe('urn:gdst:d:product:class:a.%C3%A9%23%3F');
  });
});
