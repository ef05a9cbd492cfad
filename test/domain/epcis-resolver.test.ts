import { epcisMasterDataOf } from '../../domain/epcis/master-data';
import { DIGITAL_LINK_MEMBERS } from '../helpers/opentraceability';
import {
  eventMatchOf,
  identifierOf,
  linksOf,
  linksetOf,
  partySpellingsOf,
  pathOf,
  placeJsonLd,
  productJsonLd,
  resolverKeyOf,
  type ResolvedKey,
} from '../../domain/epcis/resolver';

const keyOf = (...args: Parameters<typeof resolverKeyOf>): ResolvedKey => {
  const parsed = resolverKeyOf(...args);
  if ('problem' in parsed) throw new Error(parsed.problem);
  return parsed.key;
};
const problemOf = (...args: Parameters<typeof resolverKeyOf>): string => {
  const parsed = resolverKeyOf(...args);
  return 'problem' in parsed ? parsed.problem : `no problem: ${JSON.stringify(parsed.key)}`;
};

/** GS1's resolver data format, as GDST's client maps it: exactly these members. */
const GS1_LINK_MEMBERS = Object.keys(DIGITAL_LINK_MEMBERS).sort();

describe('the resolver’s keys: GS1 keys, and the URNs GDST’s client puts in their place', () => {
  it('takes a GTIN (padded to 14 digits) or a product class URN, with a lot or serial', () => {
    expect(keyOf('01', '9506000134352', { lot: 'A1' })).toEqual({
      ai: '01',
      id: '09506000134352',
      gs1: true,
      lot: 'A1',
    });
    const gdst = keyOf('01', 'urn:gdst:example.org:product:class:processor.2u', { lot: 'v1-0122-2022' });
    expect(gdst).toEqual({
      ai: '01',
      id: 'urn:gdst:example.org:product:class:processor.2u',
      gs1: false,
      lot: 'v1-0122-2022',
    });
    // As GDST's events name the lot, and as our own events name a lot of a product with that URN.
    expect(identifierOf(gdst)).toBe('urn:gdst:example.org:product:lot:class:processor.2u.v1-0122-2022');
    expect(eventMatchOf(gdst)).toEqual({
      kind: 'anyEPCClass',
      values: [
        'urn:gdst:example.org:product:lot:class:processor.2u.v1-0122-2022',
        'urn:gdst:example.org:product:class:processor.2u.lot.v1-0122-2022',
      ],
    });
    const serial = keyOf('01', 'urn:gdst:example.org:product:class:processor.2u', { serial: '7' });
    expect(identifierOf(serial)).toBe('urn:gdst:example.org:product:serial:obj:processor.2u.7');
    expect(eventMatchOf(serial)?.kind).toBe('anyEPC');
    expect(pathOf(gdst)).toBe('/01/urn:gdst:example.org:product:class:processor.2u/10/v1-0122-2022');
  });

  it('takes an SSCC as its digits or its EPC URN, and the logistic units GDST’s client resolves as SSCCs as they are', () => {
    // urn:epc:id:sscc:0614141.1234567890 is SSCC 106141412345678908.
    expect(keyOf('00', 'urn:epc:id:sscc:0614141.1234567890')).toEqual({
      ai: '00',
      id: '106141412345678908',
      gs1: true,
    });
    expect(keyOf('00', '106141412345678908')).toEqual({ ai: '00', id: '106141412345678908', gs1: true });
    expect(identifierOf(keyOf('00', '106141412345678908'))).toBe('https://id.gs1.org/00/106141412345678908');
    // GDST's samples have SSCC URNs of 15 digits: kept as sent, as the events name them.
    const short = keyOf('00', 'urn:epc:id:sscc:08600031303.0004');
    expect(eventMatchOf(short)).toEqual({ kind: 'anyEPC', values: ['urn:epc:id:sscc:08600031303.0004'] });
    expect(keyOf('00', 'urn:example:lpn:obj:4711').gs1).toBe(false);
    expect(problemOf('00', '106141412345678907')).toMatch(/is not an SSCC \(18 digits with a valid GS1 check digit/);
  });

  it('reads the paths as OpenTraceability writes them: a lot’s escapes decoded, a container lower-cased, URN in capitals', () => {
    // OpenTraceability puts a GDST lot into the path as its URN spells it; the path arrives decoded.
    const escaped = keyOf('01', 'urn:gdst:example.org:product:class:processor.2u', { lot: 'LOT 01' });
    expect(eventMatchOf(escaped)?.values).toContain('urn:gdst:example.org:product:lot:class:processor.2u.LOT%2001');
    // Its EPC.ToString() lower-cases the whole URN; ISO 6346 writes a container's code in capitals.
    const container = keyOf('00', 'urn:epc:id:bic:csqu3054383');
    expect(container.id).toBe('urn:epc:id:bic:CSQU3054383');
    expect(eventMatchOf(container)?.values).toEqual(['urn:epc:id:bic:CSQU3054383', 'urn:epc:id:bic:csqu3054383']);
    // A party GDST's documents name by an SGLN, which the client asks for by its 13 digits.
    expect(partySpellingsOf(keyOf('417', '0860003130308'))).toContain('urn:epc:id:sgln:08600031303.0.0');
    expect(keyOf('01', 'URN:gdst:example.org:product:class:processor.2u').id).toBe(
      'urn:gdst:example.org:product:class:processor.2u',
    );
  });

  it('takes a GLN or PGLN (an SGLN or PGLN URN too) or a location or party URN', () => {
    expect(keyOf('414', 'urn:epc:id:sgln:0614141.00001.0')).toEqual({ ai: '414', id: '0614141000012', gs1: true });
    expect(keyOf('414', 'urn:gdst:example.org:location:loc:importer.123u').gs1).toBe(false);
    expect(keyOf('417', 'urn:epc:id:pgln:0614141.00001')).toEqual({ ai: '417', id: '0614141000012', gs1: true });
    expect(keyOf('417', 'urn:gdst:example.org:party:processor.1u')).toEqual({
      ai: '417',
      id: 'urn:gdst:example.org:party:processor.1u',
      gs1: false,
    });
  });

  it('takes a GLN with its extension (AI 254), and a GTIN as the EPC class pattern OpenTraceability’s Java client writes', () => {
    const dock = keyOf('414', '0614141000012', { extension: '7' });
    expect(dock).toEqual({ ai: '414', id: '0614141000012', gs1: true, extension: '7' });
    expect(pathOf(dock)).toBe('/414/0614141000012/254/7');
    expect(identifierOf(dock)).toBe('https://id.gs1.org/414/0614141000012/254/7');
    expect(problemOf('414', 'urn:gdst:example.org:location:loc:x', { extension: '1' })).toMatch(
      /only a GLN has extensions/,
    );
    expect(keyOf('01', 'urn:epc:idpat:sgtin:0614141.012345')).toEqual({ ai: '01', id: '00614141123452', gs1: true });
  });

  it('refuses what is neither, naming both forms', () => {
    expect(problemOf('01', '09506000134353')).toMatch(
      /is not a GTIN \(8, 12, 13 or 14 digits with a valid GS1 check digit\) nor a product class URN/,
    );
    expect(problemOf('01', 'urn:gdst:example.org:party:processor.1u')).toMatch(/nor a product class URN/);
    expect(problemOf('414', 'LOC-1')).toMatch(/is not a GLN .* nor a location URN/);
    expect(problemOf('417', 'processor')).toMatch(/is not a PGLN .* nor a party URN/);
  });
});

describe('the resolver’s links', () => {
  const base = 'https://traceability.example';

  it('are GS1’s resolver data format and nothing else: the EPCIS query interface first, as the default link', () => {
    const key = keyOf('01', 'urn:gdst:example.org:product:class:processor.2u', { lot: 'v1-0122-2022' });
    const links = linksOf(key, base);
    for (const link of links) expect(Object.keys(link).sort()).toEqual(GS1_LINK_MEMBERS);
    expect(links.map((l) => [l.linkType, l.link, l.defaultLinkType, l.identifier])).toEqual([
      ['gs1:epcis', `${base}/epcis`, true, 'urn:gdst:example.org:product:lot:class:processor.2u.v1-0122-2022'],
      [
        'gs1:epcis',
        `${base}/epcis/events?MATCH_anyEPCClass=${encodeURIComponent('urn:gdst:example.org:product:lot:class:processor.2u.v1-0122-2022|urn:gdst:example.org:product:class:processor.2u.lot.v1-0122-2022')}`,
        false,
        'urn:gdst:example.org:product:lot:class:processor.2u.v1-0122-2022',
      ],
      [
        'gs1:masterData',
        `${base}/masterdata/01/urn:gdst:example.org:product:class:processor.2u/10/v1-0122-2022`,
        false,
        'urn:gdst:example.org:product:lot:class:processor.2u.v1-0122-2022',
      ],
    ]);
  });

  it('of an SSCC are its events only (no master data), and the linkset is anchored at the identifier', () => {
    const key = keyOf('00', 'urn:epc:id:sscc:0614141.1234567890');
    expect(linksOf(key, base).map((l) => l.link)).toEqual([
      `${base}/epcis`,
      `${base}/epcis/events?MATCH_anyEPC=${encodeURIComponent('https://id.gs1.org/00/106141412345678908')}`,
    ]);
    expect(linksetOf(key, base).linkset[0].anchor).toBe('https://id.gs1.org/00/106141412345678908');
  });
});

describe('master data vocabularies in GDST’s spelling', () => {
  it('reads `urn:epcglobal:epcis:vtype:epcclass` and `…:location` as EPCClass and Location, as GDST’s own samples write them', () => {
    const data = epcisMasterDataOf(
      [
        {
          type: 'urn:epcglobal:epcis:vtype:epcclass',
          vocabularyElementList: [
            {
              id: 'urn:gdst:example.org:product:class:processor.2u',
              attributes: [{ id: 'urn:epcglobal:cbv:mda#descriptionShort', attribute: 'Can of Tuna' }],
            },
          ],
        },
        {
          type: 'urn:epcglobal:epcis:vtype:location',
          vocabularyElementList: [
            {
              id: 'urn:gdst:example.org:location:loc:importer.123u',
              attributes: [{ id: 'urn:epcglobal:cbv:mda#name', attribute: 'Importer' }],
            },
          ],
        },
      ],
      '/epcisHeader/epcisMasterData/vocabularyList',
    );
    expect(data.products).toEqual([
      expect.objectContaining({ uri: 'urn:gdst:example.org:product:class:processor.2u', name: 'Can of Tuna' }),
    ]);
    expect(data.locations).toEqual([
      expect.objectContaining({ uri: 'urn:gdst:example.org:location:loc:importer.123u', name: 'Importer' }),
    ]);
  });
});

describe('master data JSON-LD: GS1 Web Vocabulary terms as GDST’s reference client maps them', () => {
  it('keys a product by `gtin` (the product class URN in its place), a sub-location by its Digital Link; names have no stated language', () => {
    const productClass = keyOf('01', 'urn:gdst:example.org:product:class:processor.2u', { lot: 'L1' });
    expect(productJsonLd(productClass, { name: 'Can of Tuna', unit: 'EA', masterData: [] })).toEqual({
      '@context': expect.objectContaining({ '@vocab': 'https://gs1.org/voc/', cbvmda: 'urn:epcglobal:cbv:mda#' }),
      '@id': 'urn:gdst:example.org:product:lot:class:processor.2u.L1',
      '@type': 'gs1:Product',
      gtin: 'urn:gdst:example.org:product:class:processor.2u',
      productName: [{ '@value': 'Can of Tuna' }],
      hasBatchLotNumber: 'L1',
      netContent: { '@type': 'gs1:QuantitativeValue', unitCode: 'EA' },
    });
    const place = { name: 'Dock 7', partyName: '', address: null, vessel: null, captainsName: null };
    expect(placeJsonLd(keyOf('414', '0614141000012', { extension: '7' }), place)).toMatchObject({
      globalLocationNumber: 'https://id.gs1.org/414/0614141000012/254/7',
      name: [{ '@value': 'Dock 7' }],
    });
    expect(placeJsonLd(keyOf('414', '0614141000012', { extension: '0' }), place).globalLocationNumber).toBe(
      '0614141000012',
    );
  });
});
