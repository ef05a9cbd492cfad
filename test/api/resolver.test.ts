import { createAccount, type TestAccount } from '../factories/accounts';
import { EPCIS_CONTEXT, capture, epcisDocument, gs1Ids, lotOf, objectEvent } from '../factories/epcis';
import { apiUrl, client, getWithExactHeaders, request } from '../helpers/http';
import { masterDataOf, parseDigitalLinks } from '../helpers/opentraceability';

/** A link in GS1's resolver data format, every member as this resolver answers it. */
const gs1Link = (fields: { link: string; linkType: string; identifier: string; defaultLinkType: boolean }) => ({
  title: expect.any(String),
  ianaLanguage: 'en',
  context: 'xx',
  mimeType: 'application/ld+json',
  active: true,
  fwqs: false,
  defaultIanaLanguage: true,
  defaultContext: true,
  defaultMimeType: true,
  authRequired: true,
  ...fields,
});

describe('GS1 Digital Link resolver', () => {
  let account: TestAccount;
  const ids = gs1Ids();
  const lot = lotOf();
  const pgln = gs1Ids().gln;
  const dockGln = gs1Ids().gln;
  const api = () => client(account.key);

  beforeAll(async () => {
    account = await createAccount('resolver');
    const partner = await api().post('/Integration/Locations', {
      Locations: [
        {
          Id: 'SUPPLIER-DOCK',
          Details: {
            Name: 'Supplier dock',
            Gln: dockGln,
            TradePartner: { Id: 'SUP', Name: 'Northern Fisheries AS', ConnectionType: 'SUPPLIER', Pgln: pgln },
            Address: { City: 'Tromsø', Country: 'NO', AddressLine1: '1 Kai' },
          },
        },
      ],
    });
    expect(partner.status).toBe(200);
    const document = {
      ...epcisDocument([
        objectEvent({
          quantityList: [{ epcClass: ids.lgtin(lot), quantity: 800, uom: 'KGM' }],
          bizLocation: ids.sgln(),
        }),
      ]),
      epcisHeader: {
        epcisMasterData: {
          vocabularyList: [
            {
              type: 'urn:epcglobal:epcis:vtype:EPCClass',
              vocabularyElementList: [
                {
                  id: ids.gtinClass,
                  attributes: [{ id: 'cbvmda:descriptionShort', attribute: 'Atlantic cod, whole' }],
                },
              ],
            },
            {
              type: 'urn:epcglobal:epcis:vtype:BusinessLocation',
              vocabularyElementList: [
                {
                  id: ids.sgln(),
                  attributes: [
                    { id: 'cbvmda:name', attribute: 'FV Northern Star' },
                    { id: 'gdst:vesselName', attribute: 'Northern Star' },
                    { id: 'gdst:vesselFlagState', attribute: 'NO' },
                  ],
                },
              ],
            },
          ],
        },
      },
    };
    expect(await capture(account.key, document)).toMatchObject({ success: true });
  });

  it('linkType=gs1:epcis (any letter case) answers the links GDST’s tools read, in GS1’s resolver data format: the EPCIS query interface first, then the lot’s events', async () => {
    const anchor = `https://id.gs1.org/01/${ids.gtin}/10/${lot}`;
    for (const linkType of ['gs1:epcis', 'GS1:EPCIS']) {
      const response = await api().get(`/01/${ids.gtin}/10/${lot}?linkType=${encodeURIComponent(linkType)}`);
      expect({ linkType, status: response.status }).toEqual({ linkType, status: 200 });
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      // GDST's client maps the answer with a mapper that refuses any member GS1's format lacks.
      expect(parseDigitalLinks(response.body)).toEqual([
        gs1Link({ link: `${apiUrl()}/epcis`, linkType: 'gs1:epcis', identifier: anchor, defaultLinkType: true }),
        gs1Link({
          link: `${apiUrl()}/epcis/events?MATCH_anyEPCClass=${encodeURIComponent(anchor)}`,
          linkType: 'gs1:epcis',
          identifier: anchor,
          defaultLinkType: false,
        }),
      ]);
    }
    const [, events] = parseDigitalLinks((await api().get(`/01/${ids.gtin}/10/${lot}?linkType=gs1:epcis`)).body);
    const followed = await api().get(events.link!.slice(apiUrl().length));
    expect(followed.status).toBe(200);
    expect(followed.body.epcisBody.queryResults.resultsBody.eventList).toHaveLength(1);
  });

  it('linkType=gs1:masterData answers GDST’s client (no Accept header) its link, which answers GS1 Web Vocabulary JSON-LD whatever it accepts', async () => {
    const path = `/01/${ids.gtin}/10/${lot}`;
    const anchor = `https://id.gs1.org${path}`;
    // As GDST's client asks: its HttpClient's default headers, no Accept; and as fetch asks (any type).
    for (const answer of [
      await getWithExactHeaders(`${path}?linkType=gs1:masterData`, { 'X-API-Key': account.key }),
      await api().get(`${path}?linkType=gs1:masterData`),
      await api().get(`${path}?linkType=gs1:masterData`, { Accept: 'application/json' }),
    ]) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(answer.headers.get('vary')).toMatch(/Accept/i);
      expect(parseDigitalLinks(answer.body)).toEqual([
        gs1Link({
          link: `${apiUrl()}/masterdata${path}`,
          linkType: 'gs1:masterData',
          identifier: anchor,
          defaultLinkType: false,
        }),
      ]);
    }
    const product = await getWithExactHeaders(`/masterdata${path}`, { 'X-API-Key': account.key });
    expect(product.headers.get('content-type')).toMatch(/^application\/ld\+json/);
    expect(product.body).toEqual({
      '@context': expect.objectContaining({ '@vocab': 'https://gs1.org/voc/' }),
      '@type': 'gs1:Product',
      '@id': anchor,
      gtin: ids.gtin,
      productName: [{ '@value': 'Atlantic cod, whole' }],
      hasBatchLotNumber: lot,
      netContent: { '@type': 'gs1:QuantitativeValue', unitCode: 'KGM' },
    });
    // Asked for JSON-LD itself, the resolver answers it as before.
    const asJsonLd = await api().get(`${path}?linkType=gs1:masterData`, { Accept: 'application/ld+json' });
    expect(asJsonLd.headers.get('content-type')).toMatch(/^application\/ld\+json/);
    expect(asJsonLd.body).toEqual(product.body);

    // OpenTraceability's Java client writes the GTIN as its EPC class pattern without the `.*`.
    const [javaLink] = parseDigitalLinks(
      (await api().get(`/01/${ids.gtinClass.replace(/\.\*$/, '')}?linkType=gs1:masterData`)).body,
    );
    expect(javaLink.link).toBe(`${apiUrl()}/masterdata/01/${ids.gtin}`);

    const vessel = await api().get(`/masterdata/414/${ids.gln}`);
    expect(vessel.body).toMatchObject({
      '@type': 'gs1:Place',
      globalLocationNumber: ids.gln,
      name: [{ '@value': 'FV Northern Star' }],
      'cbvmda:vesselName': 'Northern Star',
      'cbvmda:vesselFlagState': 'NO',
    });
    expect(masterDataOf('Location', vessel.body)).toMatchObject({ id: ids.gln, vesselName: 'Northern Star' });
    const party = await api().get(`/masterdata/417/${pgln}`);
    expect(party.body).toMatchObject({
      '@type': 'gs1:Organization',
      globalLocationNumber: pgln,
      organizationName: [{ '@value': 'Northern Fisheries AS' }],
    });
    const partner = await api().get(`/masterdata/414/${dockGln}`);
    expect(masterDataOf('Location', partner.body)).toMatchObject({
      id: dockGln,
      name: [{ language: '', value: 'Supplier dock' }],
      address: {
        streetAddress: [{ language: '', value: '1 Kai' }],
        addressLocality: [{ language: '', value: 'Tromsø' }],
        countryCode: 'NO',
      },
    });
    for (const unknown of [
      `/masterdata/01/${gs1Ids().gtin}`,
      `/masterdata/414/${gs1Ids().gln}`,
      `/masterdata/417/${ids.gln}`,
    ])
      expect({ unknown, status: (await api().get(unknown)).status }).toEqual({ unknown, status: 404 });
    const other = await createAccount('resolver-md-other');
    expect((await client(other.key).get(`/masterdata${path}`)).status).toBe(404);
    expect((await api().get(`/masterdata${path}?linkType=gs1:epcis`)).status).toBe(400);
  });

  it('resolves a GLN’s extension (AI 254), as events name a sub-location and GDST’s client asks for it', async () => {
    const path = `/414/${ids.gln}/254/7`;
    const dock = ids.sgln('7');
    expect(
      await capture(
        account.key,
        epcisDocument([
          objectEvent({ quantityList: [{ epcClass: ids.lgtin(lot), quantity: 1, uom: 'KGM' }], bizLocation: dock }),
        ]),
      ),
    ).toMatchObject({ success: true });
    const [, events] = parseDigitalLinks((await api().get(`${path}?linkType=gs1:epcis`)).body);
    expect(events.identifier).toBe(`https://id.gs1.org${path}`);
    expect(
      (await api().get(events.link!.slice(apiUrl().length))).body.epcisBody.queryResults.resultsBody.eventList,
    ).toHaveLength(1);
    expect((await api().get(`/masterdata${path}`)).body).toMatchObject({
      '@id': `https://id.gs1.org${path}`,
      globalLocationNumber: `https://id.gs1.org${path}`,
    });
    expect((await api().get(`/414/${ids.gln}/254/8?linkType=gs1:epcis`)).status).toBe(404);
    expect((await api().get(`/414/urn:gdst:example.org:location:loc:x/254/1`)).status).toBe(400);
  });

  it('without a linkType answers the RFC 9264 linkset', async () => {
    const response = await api().get(`/01/${ids.gtin}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/linkset\+json/);
    expect(response.body).toEqual({
      linkset: [
        {
          anchor: `https://id.gs1.org/01/${ids.gtin}`,
          'https://gs1.org/voc/epcis': [
            expect.objectContaining({ href: `${apiUrl()}/epcis` }),
            expect.objectContaining({ href: expect.stringContaining('MATCH_anyEPCClass') }),
          ],
          'https://gs1.org/voc/masterData': [
            expect.objectContaining({ href: `${apiUrl()}/masterdata/01/${ids.gtin}` }),
          ],
        },
      ],
    });
  });

  it('resolves GDST’s URNs in place of GS1 keys (product class with its lot, location, party) and an SSCC as its EPC URN or digits', async () => {
    const productClass = 'urn:gdst:example.org:product:class:resolver.loins';
    const plant = 'urn:gdst:example.org:location:loc:resolver.plant';
    const [shipper, owner] = [
      'urn:gdst:example.org:party:resolver.shipper',
      'urn:gdst:example.org:party:resolver.owner',
    ];
    const pallet = 'urn:epc:id:sscc:0614141.1234567890';
    const document = {
      ...epcisDocument([
        {
          type: 'ObjectEvent',
          eventTime: '2024-05-05T10:00:00.000Z',
          eventTimeZoneOffset: '+00:00',
          action: 'OBSERVE',
          bizStep: 'shipping',
          epcList: [pallet],
          quantityList: [
            { epcClass: 'urn:gdst:example.org:product:lot:class:resolver.loins.L-1', quantity: 40, uom: 'KGM' },
          ],
          bizLocation: { id: plant },
          sourceList: [{ type: 'owning_party', source: shipper }],
          'gdst:productOwner': owner,
        },
      ]),
      '@context': [...EPCIS_CONTEXT, { gdst: 'https://traceability-dialogue.org/vocab/' }],
      epcisHeader: {
        epcisMasterData: {
          vocabularyList: [
            {
              type: 'urn:epcglobal:epcis:vtype:epcclass',
              vocabularyElementList: [
                {
                  id: productClass,
                  attributes: [{ id: 'urn:epcglobal:cbv:mda#descriptionShort', attribute: 'Yellowfin loins' }],
                },
              ],
            },
            {
              type: 'urn:epcglobal:epcis:vtype:location',
              vocabularyElementList: [
                { id: plant, attributes: [{ id: 'urn:epcglobal:cbv:mda#name', attribute: 'Loin plant' }] },
              ],
            },
          ],
        },
      },
    };
    expect(await capture(account.key, document)).toMatchObject({ success: true, errors: [] });

    const lotPath = `/01/${productClass}/10/L-1`;
    const lotClass = 'urn:gdst:example.org:product:lot:class:resolver.loins.L-1';
    const [, events] = parseDigitalLinks((await api().get(`${lotPath}?linkType=gs1:epcis`)).body);
    expect(events).toMatchObject({ identifier: lotClass, linkType: 'gs1:epcis' });
    expect(
      (await api().get(events.link!.slice(apiUrl().length))).body.epcisBody.queryResults.resultsBody.eventList,
    ).toHaveLength(1);
    expect((await api().get(`/masterdata${lotPath}`)).body).toEqual({
      '@context': expect.any(Object),
      '@id': lotClass,
      '@type': 'gs1:Product',
      gtin: productClass,
      productName: [{ '@value': 'Yellowfin loins' }],
      hasBatchLotNumber: 'L-1',
      netContent: expect.any(Object),
    });
    expect((await api().get(`/01/${productClass}`)).body.linkset[0].anchor).toBe(productClass);

    // The pallet, as GDST's client sends it (its EPC URN) and as GS1 keys it (18 digits): its events, no master data.
    for (const sscc of [pallet, '106141412345678908']) {
      const [, ofPallet] = parseDigitalLinks((await api().get(`/00/${sscc}?linkType=gs1:epcis`)).body);
      expect(ofPallet.link).toBe(
        `${apiUrl()}/epcis/events?MATCH_anyEPC=${encodeURIComponent('https://id.gs1.org/00/106141412345678908')}`,
      );
      expect(
        (await api().get(ofPallet.link!.slice(apiUrl().length))).body.epcisBody.queryResults.resultsBody.eventList,
      ).toHaveLength(1);
    }
    const palletMasterData = await api().get(`/00/${pallet}?linkType=gs1:masterData`);
    expect(palletMasterData.status).toBe(404);
    expect(palletMasterData.body.detail).toMatch(/no link of type gs1:masterData for this identifier/);

    expect((await api().get(`/masterdata/414/${plant}`)).body).toMatchObject({
      '@id': plant,
      '@type': 'gs1:Place',
      globalLocationNumber: plant,
      name: [{ '@value': 'Loin plant' }],
    });
    // A party the events name (as a source, as GDST's product owner) is held; its master data is its identity.
    for (const party of [shipper, owner]) {
      const [first] = parseDigitalLinks((await api().get(`/417/${party}?linkType=gs1:epcis`)).body);
      expect(first).toMatchObject({ link: `${apiUrl()}/epcis`, identifier: party });
      expect((await api().get(`/masterdata/417/${party}`)).body).toEqual({
        '@context': expect.any(Object),
        '@id': party,
        '@type': 'gs1:Organization',
        globalLocationNumber: party,
      });
    }

    const other = client((await createAccount('resolver-gdst-other')).key);
    for (const path of [
      lotPath,
      `/01/${productClass}`,
      `/00/${pallet}`,
      `/414/${plant}`,
      `/417/${shipper}`,
      `/417/${owner}`,
    ])
      expect({ path, status: (await other.get(`${path}?linkType=gs1:epcis`)).status }).toEqual({ path, status: 404 });
    const unnamed = await api().get(`/01/${productClass}/10/L-2?linkType=gs1:epcis`);
    expect(unnamed.status).toBe(404);
    expect(unnamed.body.detail).toBe(`No event of this account names lot L-2 of product class URN ${productClass}.`);
  });

  it('resolves the paths as OpenTraceability writes them: a GDST lot with an escape, a container in lower case', async () => {
    const productClass = 'urn:gdst:example.org:product:class:resolver.escaped';
    const container = 'urn:epc:id:bic:CSQU3054383';
    const document = epcisDocument([
      {
        type: 'ObjectEvent',
        eventTime: '2024-05-06T10:00:00.000Z',
        eventTimeZoneOffset: '+00:00',
        action: 'OBSERVE',
        bizStep: 'shipping',
        epcList: [container],
        quantityList: [
          { epcClass: 'urn:gdst:example.org:product:lot:class:resolver.escaped.LOT%2001', quantity: 5, uom: 'KGM' },
        ],
        bizLocation: { id: 'urn:gdst:example.org:location:loc:resolver.dock' },
      },
    ]);
    expect(await capture(account.key, document)).toMatchObject({ success: true, errors: [] });
    // OpenTraceability's EPC.ToDigitalLinkURI: the lot as its URN spells it; an SSCC-like EPC in lower case.
    for (const path of [`/01/${productClass}/10/LOT%2001`, `/00/${container.toLowerCase()}`]) {
      const answer = await api().get(`${path}?linkType=gs1:epcis`);
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
      const [, events] = parseDigitalLinks(answer.body);
      expect(
        (await api().get(events.link!.slice(apiUrl().length))).body.epcisBody.queryResults.resultsBody.eventList,
      ).toHaveLength(1);
    }
  });

  it('unknown identifiers are 404 (in another account too), malformed ones 400, and the API key is required', async () => {
    expect((await api().get(`/01/${ids.gtin}/10/NO-SUCH-LOT?linkType=gs1:epcis`)).status).toBe(404);
    expect((await api().get(`/01/${gs1Ids().gtin}?linkType=gs1:epcis`)).status).toBe(404);
    expect((await api().get(`/414/${gs1Ids().gln}`)).status).toBe(404);
    expect((await api().get(`/417/${ids.gln}`)).status).toBe(404);
    expect((await api().get(`/01/${ids.gtin}?linkType=gs1:pip`)).status).toBe(404);
    const other = await createAccount('resolver-other');
    expect((await client(other.key).get(`/01/${ids.gtin}/10/${lot}?linkType=gs1:epcis`)).status).toBe(404);
    const malformed = await api().get(`/01/${ids.gtin.slice(0, -1)}${(Number(ids.gtin.slice(-1)) + 1) % 10}`);
    expect(malformed.status).toBe(400);
    expect(malformed.body.detail).toMatch(/check digit/);
    for (const [path, title] of [
      ['/01/LOT-7', /is not a GTIN .* nor a product class URN \(urn:gdst:<domain>:product:class:<id>\)/],
      ['/01/urn:gdst:example.org:party:acme.1/10/A', /nor a product class URN/],
      ['/00/12345', /is not an SSCC \(18 digits with a valid GS1 check digit, or urn:epc:id:sscc:/],
      ['/414/plant-1', /is not a GLN .* nor a location URN/],
    ] as const) {
      const refused = await api().get(path);
      expect({ path, status: refused.status }).toEqual({ path, status: 400 });
      expect(refused.body.detail).toMatch(title);
    }
    // Without a key: the service's 400 for a missing X-API-KEY, as on every route.
    expect((await request('GET', `/01/${ids.gtin}`)).status).toBe(400);
  });
});
