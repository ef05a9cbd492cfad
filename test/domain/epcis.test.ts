import { reversalOf } from '../../domain/epcis/declarations';
import {
  canonicalIdentifier,
  checkDigit,
  epcPatternOf,
  physicalLocationOf,
  spellingsOf,
  toDigitalLink,
  toEpcUrn,
  tradeItemOf,
  withDigitalLinks,
} from '../../domain/epcis/identifiers';
import { cbvName, internalTypeOf } from '../../domain/epcis/translate';
import type { EventPayload } from '../../domain/events';

describe('GS1 identifiers in EPCIS events', () => {
  it('computes the GS1 check digit', () => {
    expect(checkDigit('400638133393')).toBe('1'); // GTIN-13 4006381333931
    expect(checkDigit('1061414112345')).toBe('9'); // GTIN-14 10614141123459
  });

  it('reads GTIN, serial and lot from EPC URNs and Digital Links on any host', () => {
    expect(tradeItemOf('urn:epc:id:sgtin:0614141.112345.400')).toEqual({ gtin: '10614141123459', serial: '400' });
    expect(tradeItemOf('urn:epc:class:lgtin:4012345.012345.998877')).toEqual({ gtin: '04012345123456', lot: '998877' });
    expect(tradeItemOf('urn:epc:idpat:sgtin:4012345.012345.*')).toEqual({ gtin: '04012345123456' });
    expect(tradeItemOf('https://id.gs1.org/01/04012345123456/10/LOT%2F1')).toEqual({
      gtin: '04012345123456',
      lot: 'LOT/1',
    });
    expect(tradeItemOf('https://brand.example.com/products/01/4012345123456/21/S1')).toEqual({
      gtin: '04012345123456',
      serial: 'S1',
    });
    expect(tradeItemOf('https://id.gs1.org/01/04012345123457')).toBeUndefined(); // wrong check digit
    expect(tradeItemOf('urn:epc:id:sscc:4012345.0000000001')).toBeUndefined();
  });

  it('reads GLN and extension from SGLN URNs and Digital Links', () => {
    expect(physicalLocationOf('urn:epc:id:sgln:0614141.07346.1234')).toEqual({
      gln: '0614141073467',
      extension: '1234',
    });
    expect(physicalLocationOf('urn:epc:id:sgln:0614141.07346.0')).toEqual({ gln: '0614141073467' });
    expect(physicalLocationOf('https://id.gs1.org/414/0614141073467/254/1234')).toEqual({
      gln: '0614141073467',
      extension: '1234',
    });
    expect(physicalLocationOf('urn:example:dock:7')).toBeUndefined();
  });

  it('turns EPC URNs into Digital Links, leaves the rest, and spells every form of one identifier alike', () => {
    expect(toDigitalLink('urn:epc:id:sscc:0614141.1234567890')).toBe('https://id.gs1.org/00/106141412345678908');
    expect(toDigitalLink('urn:epc:id:sgln:0614141.07346.0')).toBe('https://id.gs1.org/414/0614141073467');
    expect(toDigitalLink('urn:epc:id:giai:4000001.12345')).toBe('urn:epc:id:giai:4000001.12345');
    expect(canonicalIdentifier('urn:epc:id:sgtin:0614141.112345.400')).toBe(
      canonicalIdentifier('https://example.com/01/10614141123459/21/400'),
    );
    const event = withDigitalLinks({
      epcList: ['urn:epc:id:sgtin:0614141.112345.400'],
      quantityList: [{ epcClass: 'urn:epc:class:lgtin:4012345.012345.9', quantity: 1 }],
      readPoint: { id: 'urn:epc:id:sgln:0614141.07346.0' },
    });
    expect(event).toEqual({
      epcList: ['https://id.gs1.org/01/10614141123459/21/400'],
      quantityList: [{ epcClass: 'https://id.gs1.org/01/04012345123456/10/9', quantity: 1 }],
      readPoint: { id: 'https://id.gs1.org/414/0614141073467' },
    });
  });

  it("spells an EPC URN's canonical identifier as its Digital Link, valid or not (the event hash reads one for the other)", () => {
    const urns = [
      'urn:epc:id:sgtin:0614141.112345.400',
      'urn:epc:id:sgtin:0614141.112345.A%2FB',
      'urn:epc:class:lgtin:4012345.012345.998877',
      'urn:epc:idpat:sgtin:4012345.012345.*',
      'urn:epc:id:sgln:0614141.07346.0',
      'urn:epc:id:sgln:0614141.07346.1234',
      'urn:epc:id:sscc:0614141.1234567890',
      'urn:epc:id:sscc:0614141.12345',
      'urn:epc:id:sgtin:12.3.4',
      'urn:epc:class:lgtin:4012345.012345.%E0%A4%A',
      'urn:epc:id:sgln:0614141.7346.0',
      'urn:epc:id:giai:4000001.12345',
      'urn:epc:id:grai:0614141.12345.400',
      'urn:epc:idpat:sgtin:4012345.*.*',
    ];
    for (const urn of urns) expect([urn, canonicalIdentifier(urn)]).toEqual([urn, toDigitalLink(urn)]);
  });
});

describe('EPC URNs from Digital Links, and EPC patterns', () => {
  it('turns a Digital Link back into its URN when the company prefix is known, and leaves it otherwise', () => {
    const urns = [
      'urn:epc:id:sgtin:0614141.112345.400',
      'urn:epc:class:lgtin:0614141.112345.LOT%2F1',
      'urn:epc:idpat:sgtin:0614141.112345.*',
      'urn:epc:id:sgln:0614141.07346.0',
      'urn:epc:id:sgln:0614141.07346.12',
      'urn:epc:id:sscc:0614141.1234567890',
    ];
    for (const urn of urns) expect(toEpcUrn(toDigitalLink(urn), new Set(['0614141']))).toBe(urn);
    expect(toEpcUrn('https://id.gs1.org/01/10614141123459/21/400', new Set(['4012345']))).toBe(
      'https://id.gs1.org/01/10614141123459/21/400',
    );
    expect(toEpcUrn('urn:epc:id:giai:4000001.12345', new Set(['4000001']))).toBe('urn:epc:id:giai:4000001.12345');
  });

  it('spells a GLN location or a PGLN party every way an event may: URN for each company prefix length, Digital Link', () => {
    const location = spellingsOf('https://example.com/414/0614141073467/254/12');
    expect(location).toEqual(
      expect.arrayContaining(['https://id.gs1.org/414/0614141073467/254/12', 'urn:epc:id:sgln:0614141.07346.12']),
    );
    expect(location).toHaveLength(9);
    expect(spellingsOf('urn:epc:id:sgln:0614141.07346.0')).toContain('https://id.gs1.org/414/0614141073467');
    expect(spellingsOf('urn:epc:id:sgln:0614141.07346.0')).toContain('urn:epc:id:sgln:061414.107346.0');
    const party = spellingsOf('urn:epc:id:pgln:0614141.00001');
    expect(party).toEqual(
      expect.arrayContaining(['https://id.gs1.org/417/0614141000012', 'urn:epc:id:pgln:06141410.0001']),
    );
    expect(spellingsOf('http://ID.example.org/417/0614141000012')).toContain('urn:epc:id:pgln:0614141.00001');
    // A wrong check digit, or no GS1 key: as given.
    expect(spellingsOf('https://id.gs1.org/417/0614141000013')).toEqual(['https://id.gs1.org/417/0614141000013']);
    expect(spellingsOf('urn:gdst:example.org:party:1')).toEqual(['urn:gdst:example.org:party:1']);
  });

  it('reads EPC pattern URIs as regular expressions over the canonical spelling', () => {
    const matches = (pattern: string, identifier: string) =>
      new RegExp(epcPatternOf(pattern)!.canonical).test(canonicalIdentifier(identifier));
    expect(matches('urn:epc:idpat:sgtin:0614141.112345.*', 'urn:epc:id:sgtin:0614141.112345.400')).toBe(true);
    expect(matches('urn:epc:idpat:sgtin:0614141.*.*', 'urn:epc:class:lgtin:0614141.112345.L1')).toBe(true);
    expect(matches('urn:epc:idpat:sgtin:0614142.*.*', 'urn:epc:id:sgtin:0614141.112345.400')).toBe(false);
    expect(matches('urn:epc:idpat:sscc:0614141.*', 'urn:epc:id:sscc:0614141.1234567890')).toBe(true);
    expect(matches('urn:epc:idpat:giai:4000001.*', 'urn:epc:id:giai:4000001.12345')).toBe(true);
    expect(epcPatternOf('urn:epc:idpat:sgtin:ABC')).toBeNull();
    expect(epcPatternOf('urn:epc:id:sgtin:0614141.112345.400')).toBeUndefined();
  });
});

describe('EPCIS events as our types', () => {
  it('maps type, action and business step as the README says', () => {
    const cases: [Parameters<typeof internalTypeOf>[0], string][] = [
      [{ type: 'ObjectEvent', action: 'ADD' }, 'commission'],
      [{ type: 'ObjectEvent', action: 'ADD', bizStep: 'receiving' }, 'receive'],
      [{ type: 'ObjectEvent', action: 'OBSERVE', bizStep: 'https://ref.gs1.org/cbv/BizStep-shipping' }, 'ship'],
      [{ type: 'ObjectEvent', action: 'OBSERVE', bizStep: 'arriving' }, 'receive'],
      [{ type: 'ObjectEvent', action: 'OBSERVE', bizStep: 'inspecting' }, 'observe'],
      [{ type: 'ObjectEvent', action: 'DELETE' }, 'decommission'],
      [{ type: 'TransformationEvent' }, 'transform'],
      [{ type: 'AggregationEvent', action: 'ADD' }, 'aggregation'],
      [{ type: 'AssociationEvent', action: 'DELETE' }, 'disaggregation'],
      [{ type: 'TransactionEvent', action: 'ADD' }, 'observe'],
    ];
    for (const [event, type] of cases) expect({ event, type: internalTypeOf(event) }).toEqual({ event, type });
    expect(cbvName('urn:epcglobal:cbv:disp:in_transit')).toBe('in_transit');
    expect(cbvName('urn:example:step')).toBeUndefined();
  });

  it('reverses what a declared event did to inventory', () => {
    const line = { Quantity: 5, LotSerial: 'L1', Product: { Id: 'P' } };
    const base = { Id: 'X', Location: { Id: 'L' }, EventTime: '2024-03-01T10:00:00Z', EventTimeZone: '+00:00' };
    expect(reversalOf({ ...base, $type: 'commission', ProductInstances: [line] }, 'R')).toMatchObject({
      $type: 'decommission',
      Id: 'R',
      ProductInstances: [line],
    });
    expect(reversalOf({ ...base, $type: 'ship', ProductInstances: [line] }, 'R')).toMatchObject({
      $type: 'receive',
      ProductInstances: [line],
    });
    const output = { ...line, LotSerial: 'L2' };
    expect(
      reversalOf({ ...base, $type: 'transform', InputProducts: [line], OutputProducts: [output] } as EventPayload, 'R'),
    ).toMatchObject({ $type: 'transform', InputProducts: [output], OutputProducts: [line] });
    expect(
      reversalOf({ ...base, $type: 'aggregation', ChildProductInstances: [line] } as EventPayload, 'R'),
    ).toMatchObject({ $type: 'observe', ProductInstances: [] });
  });
});
