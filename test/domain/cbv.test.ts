import { isUrn, vocabularyIssue } from '../../domain/cbv';

describe('GS1 CBV vocabulary and URN syntax', () => {
  it.each([
    ['urn:epcglobal:cbv:bizstep:commissioning', 'BizStep'],
    ['urn:epcglobal:cbv:bizstep:void_shipping', 'BizStep'],
    ['urn:epcglobal:cbv:disp:in_transit', 'Disposition'],
    ['urn:example:bizstep:landing', 'BizStep'],
    ['urn:gdst:example.org:disp:quarantined', 'Disposition'],
    // Not (yet) in the CBV 2.0 list, sent by EPCIS producers: kept verbatim, as the GS1 schema allows.
    ['urn:epcglobal:cbv:bizstep:transforming', 'BizStep'],
    ['urn:epcglobal:cbv:bizstep:fishing', 'BizStep'],
    ['https://ns.example.com/voc/bizstep/landing', 'BizStep'],
    ['shipping', 'BizStep'],
    ['in_transit', 'Disposition'],
  ] as const)('accepts %s as a %s', (value, kind) => {
    expect(vocabularyIssue(kind, value)).toBeUndefined();
  });

  it.each([
    ['fishing', 'BizStep', 'neither a URN nor an http(s) URI'],
    ['in_transit', 'BizStep', 'neither a URN nor an http(s) URI'],
    ['urn:x:', 'Disposition', 'neither a URN nor an http(s) URI'],
    ['ftp://example.org/x', 'Disposition', 'neither a URN nor an http(s) URI'],
  ] as const)('rejects %s as a %s', (value, kind, reason) => {
    expect(vocabularyIssue(kind, value)).toContain(reason);
  });

  it.each([
    ['urn:gdst:example.org:product:class:acme.cod', true],
    ['urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66', true],
    ['URN:ISBN:0451450523', true],
    ['urn:a:b', false], // a NID has at least two characters
    ['urn:-ab:x', false],
    ['urn:ab:%zz', false],
    ['urn:ab:has space', false],
    ['http://example.org', false],
  ])('isUrn(%s) is %s', (value, expected) => {
    expect(isUrn(value)).toBe(expected);
  });
});
