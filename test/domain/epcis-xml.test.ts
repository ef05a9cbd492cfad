import { DOMParser } from '@xmldom/xmldom';
import { cbvWord, cbvXml, sensorTypeWord, sensorTypeXml } from '../../domain/epcis/xml/cbv';
import { jsonLdOfXml, versionOfRoot, xpathOf } from '../../domain/epcis/xml/from-xml';
import { epcisDocumentXml, queryDocumentXml } from '../../domain/epcis/xml/to-xml';

const rootOf = (xml: string) => new DOMParser().parseFromString(xml, 'text/xml').documentElement!;

describe('CBV values between the bindings', () => {
  it('URNs and Web URIs become bare words; anything else stays as it is', () => {
    expect(cbvWord('bizstep', 'urn:epcglobal:cbv:bizstep:shipping')).toBe('shipping');
    expect(cbvWord('bizstep', 'https://ref.gs1.org/cbv/BizStep-shipping')).toBe('shipping');
    expect(cbvWord('disp', 'urn:epcglobal:cbv:bizstep:shipping')).toBe('urn:epcglobal:cbv:bizstep:shipping');
    expect(cbvWord('btt', 'urn:gs1:epcisapp:rail:btt:passage')).toBe('urn:gs1:epcisapp:rail:btt:passage');
    expect(cbvWord('er', 'https://ref.gs1.org/cbv/ER-incorrect_data')).toBe('incorrect_data');
  });

  it('GS1-CBV-XML-Format decides the XML form of a CBV term, never of a company URI', () => {
    expect(cbvXml('sdt', 'owning_party', 'No_Preference')).toBe('urn:epcglobal:cbv:sdt:owning_party');
    expect(cbvXml('sdt', 'owning_party', 'Always_Web_URI')).toBe('https://ref.gs1.org/cbv/SDT-owning_party');
    expect(cbvXml('disp', 'https://ref.gs1.org/cbv/Disp-active', 'Always_URN')).toBe('urn:epcglobal:cbv:disp:active');
    expect(cbvXml('disp', 'https://ref.gs1.org/cbv/Disp-active', 'Never_Translates')).toBe(
      'https://ref.gs1.org/cbv/Disp-active',
    );
    expect(cbvXml('disp', 'active', 'Never_Translates')).toBe('urn:epcglobal:cbv:disp:active');
    expect(cbvXml('bizstep', 'http://epcis.example.org/hc/bizstep/summarising_discharge', 'Always_Web_URI')).toBe(
      'http://epcis.example.org/hc/bizstep/summarising_discharge',
    );
  });

  it('sensor types: gs1:Temperature in XML, Temperature in JSON-LD', () => {
    expect(sensorTypeWord('gs1:Temperature')).toBe('Temperature');
    expect(sensorTypeXml('Temperature')).toBe('gs1:Temperature');
    expect(sensorTypeXml('example:Abc')).toBe('example:Abc');
  });
});

describe('EPCIS XML and JSON-LD', () => {
  /** An ObjectEvent of no EPCs, for the extension fields a test adds. */
  const observation = {
    type: 'ObjectEvent',
    eventTime: '2024-01-01T00:00:00Z',
    eventTimeZoneOffset: '+00:00',
    action: 'OBSERVE',
    epcList: [],
  };

  it('knows the two bindings by their root namespace only', () => {
    expect(versionOfRoot(rootOf('<e:EPCISDocument xmlns:e="urn:epcglobal:epcis:xsd:2"/>'))).toBe('2.0');
    expect(versionOfRoot(rootOf('<q:EPCISQueryDocument xmlns:q="urn:epcglobal:epcis-query:xsd:1"/>'))).toBe('1.2');
    expect(versionOfRoot(rootOf('<EPCISDocument/>'))).toBeUndefined();
  });

  it('an extension in the default namespace gets a prefix of its own in @context; one prefix bound twice is told apart', () => {
    const root =
      rootOf(`<e:EPCISDocument xmlns:e="urn:epcglobal:epcis:xsd:2" schemaVersion="2.0" creationDate="2024-01-01T00:00:00Z"><EPCISBody><EventList>
      <ObjectEvent><eventTime>2024-01-01T00:00:00Z</eventTime><eventTimeZoneOffset>+00:00</eventTimeZoneOffset><epcList/><action>OBSERVE</action>
        <x:a xmlns:x="https://one.example/">1</x:a><b xmlns="https://two.example/">2</b><x:c xmlns:x="https://three.example/"><x:d>3</x:d><x:d>4</x:d></x:c>
      </ObjectEvent></EventList></EPCISBody></e:EPCISDocument>`);
    const { document, eventPaths, issues } = jsonLdOfXml(root, '2.0');
    expect(issues).toEqual([]);
    expect(eventPaths).toEqual(['/e:EPCISDocument/EPCISBody/EventList/ObjectEvent']);
    expect(document['@context']).toEqual([
      'https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld',
      { x: 'https://one.example/' },
      { ext: 'https://two.example/' },
      { x2: 'https://three.example/' },
    ]);
    expect(document.epcisBody.eventList[0]).toMatchObject({ 'x:a': '1', 'ext:b': '2', 'x2:c': { 'x2:d': ['3', '4'] } });
  });

  it('writes 1.2 with its wrappers: AssociationEvent in EventList/extension/extension, 2.0-only fields one extension deeper', () => {
    const events = [
      {
        type: 'AssociationEvent',
        eventTime: '2024-01-01T00:00:00Z',
        eventTimeZoneOffset: '+00:00',
        parentID: 'urn:epc:id:grai:4012345.55555.987',
        action: 'ADD',
      },
      {
        type: 'ObjectEvent',
        eventTime: '2024-01-01T00:00:00Z',
        eventTimeZoneOffset: '+00:00',
        eventID: 'urn:uuid:1',
        action: 'ADD',
        persistentDisposition: { set: ['active'] },
        certificationInfo: 'https://cert.example/1',
      },
    ];
    const xml = queryDocumentXml(events, [], {
      version: '1.2',
      cbvFormat: 'No_Preference',
      creationDate: '2024-01-01T00:00:00Z',
    });
    expect(xml).toContain('<EventList><extension><extension><AssociationEvent>');
    expect(xml).toContain(
      '<baseExtension><eventID>urn:uuid:1</eventID><extension><certificationInfo>https://cert.example/1</certificationInfo></extension></baseExtension><epcList/><action>ADD</action>',
    );
    expect(xml).toContain(
      '<extension><extension><persistentDisposition><set>urn:epcglobal:cbv:disp:active</set></persistentDisposition></extension></extension>',
    );
    // And back: the wrappers are read through.
    const again = jsonLdOfXml(rootOf(xml), '1.2').document.epcisBody.eventList;
    expect(again).toEqual([{ ...events[0] }, { ...events[1], epcList: [] }]);
  });

  it('escapes text and attributes; an EPCISDocument names its events by XPath', () => {
    const xml = epcisDocumentXml(
      [
        {
          type: 'TransactionEvent',
          eventTime: '2024-01-01T00:00:00Z',
          eventTimeZoneOffset: '+00:00',
          action: 'ADD',
          bizTransactionList: [{ type: 'a"<b>&', bizTransaction: '<&>' }],
        },
      ],
      [],
      { version: '2.0', cbvFormat: 'No_Preference', creationDate: '2024-01-01T00:00:00Z' },
    );
    const root = rootOf(xml);
    const { document, eventPaths } = jsonLdOfXml(root, '2.0');
    expect(document.epcisBody.eventList[0].bizTransactionList).toEqual([{ type: 'a"<b>&', bizTransaction: '<&>' }]);
    expect(eventPaths).toEqual(['/epcis:EPCISDocument/EPCISBody/EventList/TransactionEvent']);
    expect(xpathOf(root)).toBe('/epcis:EPCISDocument');
  });

  it('an extension key of a prefix no @context defines, or a whole IRI, still becomes an element (never dropped)', () => {
    const event = {
      ...observation,
      'foo:bar': '1',
      'https://ns.example.com/epcis#field': '2',
    };
    const xml = queryDocumentXml([event], [], {
      version: '2.0',
      cbvFormat: 'No_Preference',
      creationDate: '2024-01-01T00:00:00Z',
    });
    expect(xml).toContain('xmlns:foo="foo:"');
    expect(xml).toContain('xmlns:ns1="https://ns.example.com/epcis#"');
    expect(xml).toContain('<foo:bar>1</foo:bar><ns1:field>2</ns1:field>');
  });

  it('writes well-formed XML of whatever a JSON-LD capture took: node ids, value objects, control characters, odd keys', () => {
    const event = {
      ...observation,
      'ex:obj': { 'ex:inner': 'v', '@id': 'urn:example:x', 'not a name': 'y' },
      'ex:typed': { '@value': 'v', '@type': 'xsd:string' },
      'ex:ctl': 'a\u0001b\uFFFEc\uD800d',
    };
    const xml = queryDocumentXml([event], [{ ex: 'https://ns.example.com/' }], {
      version: '2.0',
      cbvFormat: 'No_Preference',
      creationDate: '2024-01-01T00:00:00Z',
    });
    // xmldom warns of each U+FFFD, which stands for what XML cannot hold: errors only.
    const errors: string[] = [];
    const onError = (level: string, message: string) => void (level !== 'warning' && errors.push(message));
    expect(() => new DOMParser({ onError }).parseFromString(xml, 'text/xml')).not.toThrow();
    expect(errors).toEqual([]);
    expect(xml).toContain(
      '<ex:obj><ex:inner>v</ex:inner></ex:obj><ex:typed>v</ex:typed><ex:ctl>a\uFFFDb\uFFFDc\uFFFDd</ex:ctl>',
    );
  });

  it('reads EPCISMasterData into epcisHeader.epcisMasterData, an attribute with elements as an object', () => {
    const root =
      rootOf(`<e:EPCISDocument xmlns:e="urn:epcglobal:epcis:xsd:2" xmlns:x="https://x.example/" schemaVersion="2.0" creationDate="2024-01-01T00:00:00Z">
      <EPCISHeader><extension><EPCISMasterData><VocabularyList><Vocabulary type="urn:epcglobal:epcis:vtype:BusinessLocation"><VocabularyElementList>
        <VocabularyElement id="urn:epc:id:sgln:0037000.00729.0"><attribute id="urn:epcglobal:cbv:mda#name">Dock 7</attribute><attribute id="https://x.example/address"><x:city>Lyon</x:city></attribute><children><id>urn:epc:id:sgln:0037000.00729.8201</id></children></VocabularyElement>
      </VocabularyElementList></Vocabulary></VocabularyList></EPCISMasterData></extension></EPCISHeader>
      <EPCISBody><EventList/></EPCISBody></e:EPCISDocument>`);
    expect(jsonLdOfXml(root, '2.0').document.epcisHeader).toEqual({
      epcisMasterData: {
        vocabularyList: [
          {
            type: 'urn:epcglobal:epcis:vtype:BusinessLocation',
            vocabularyElementList: [
              {
                id: 'urn:epc:id:sgln:0037000.00729.0',
                attributes: [
                  { id: 'urn:epcglobal:cbv:mda#name', attribute: 'Dock 7' },
                  { id: 'https://x.example/address', attribute: { 'x:city': 'Lyon' } },
                ],
                children: ['urn:epc:id:sgln:0037000.00729.8201'],
              },
            ],
          },
        ],
      },
    });
  });
});
