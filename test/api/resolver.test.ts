import { createAccount, type TestAccount } from '../factories/accounts';
import { capture, epcisDocument, gs1Ids, lotOf, objectEvent } from '../factories/epcis';
import { apiUrl, client, request } from '../helpers/http';

type Link = { link: string; linkType: string; title: string; type: string; authRequired: boolean };

describe('GS1 Digital Link resolver', () => {
  let account: TestAccount;
  const ids = gs1Ids();
  const lot = lotOf();
  const pgln = gs1Ids().gln;
  const api = () => client(account.key);

  beforeAll(async () => {
    account = await createAccount('resolver');
    const partner = await api().post('/Integration/Locations', {
      Locations: [
        {
          Id: 'SUPPLIER-DOCK',
          Details: {
            Name: 'Supplier dock',
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

  it('linkType=gs1:epcis (any letter case) answers the links GDST’s tools read: the EPCIS query interface first, then the lot’s events', async () => {
    for (const linkType of ['gs1:epcis', 'GS1:EPCIS']) {
      const response = await api().get<Link[]>(`/01/${ids.gtin}/10/${lot}?linkType=${encodeURIComponent(linkType)}`);
      expect({ linkType, status: response.status }).toEqual({ linkType, status: 200 });
      expect(response.body).toEqual([
        {
          link: `${apiUrl()}/epcis`,
          linkType: 'gs1:epcis',
          title: expect.any(String),
          type: 'application/ld+json',
          authRequired: true,
        },
        {
          link: `${apiUrl()}/epcis/events?MATCH_anyEPCClass=${encodeURIComponent(`https://id.gs1.org/01/${ids.gtin}/10/${lot}`)}`,
          linkType: 'gs1:epcis',
          title: expect.any(String),
          type: 'application/ld+json',
          authRequired: true,
        },
      ]);
    }
    const [, events] = (await api().get<Link[]>(`/01/${ids.gtin}/10/${lot}?linkType=gs1:epcis`)).body;
    const followed = await api().get(events.link.slice(apiUrl().length));
    expect(followed.status).toBe(200);
    expect(followed.body.epcisBody.queryResults.resultsBody.eventList).toHaveLength(1);
  });

  it('linkType=gs1:masterData answers GS1 Web Vocabulary JSON-LD: the product, the vessel with GDST’s attributes, the party', async () => {
    const product = await api().get(`/01/${ids.gtin}/10/${lot}?linkType=gs1:masterData`);
    expect(product.headers.get('content-type')).toMatch(/^application\/ld\+json/);
    expect(product.body).toMatchObject({
      '@type': 'gs1:Product',
      '@id': `https://id.gs1.org/01/${ids.gtin}/10/${lot}`,
      'gs1:gtin': ids.gtin,
      'gs1:productName': 'Atlantic cod, whole',
      'gs1:hasBatchLotNumber': lot,
    });
    const vessel = await api().get(`/414/${ids.gln}?linkType=gs1:masterData`);
    expect(vessel.body).toMatchObject({
      '@type': 'gs1:Place',
      'gs1:globalLocationNumber': ids.gln,
      'gs1:physicalLocationName': 'FV Northern Star',
      'gdst:vesselName': 'Northern Star',
      'gdst:vesselFlagState': 'NO',
    });
    const party = await api().get(`/417/${pgln}?linkType=gs1:masterData`);
    expect(party.body).toMatchObject({
      '@type': 'gs1:Organization',
      'gs1:partyGLN': pgln,
      'gs1:organizationName': 'Northern Fisheries AS',
    });
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
            expect.objectContaining({ href: `${apiUrl()}/01/${ids.gtin}?linkType=gs1:masterData` }),
          ],
        },
      ],
    });
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
    // Without a key: the service's 400 for a missing X-API-KEY, as on every route.
    expect((await request('GET', `/01/${ids.gtin}`)).status).toBe(400);
  });
});
