import { createAccount, type TestAccount } from '../factories/accounts';
import { capture, epcisDocument, gs1Ids, lotOf, objectEvent } from '../factories/epcis';
import { rowCounts, sql } from '../helpers/db';
import { client } from '../helpers/http';

const withMasterData = (events: unknown[], vocabularyList: unknown[]) => ({
  ...epcisDocument(events),
  epcisHeader: { epcisMasterData: { vocabularyList } },
});

describe('EPCIS master data (epcisHeader.epcisMasterData)', () => {
  let account: TestAccount;

  beforeAll(async () => {
    account = await createAccount('epcis-master-data');
  });

  it('creates the products (by GTIN) and locations (by GLN, vessel attributes included) it names, updates the ones the account has, and the job lists what changed', async () => {
    const ids = gs1Ids();
    const plant = gs1Ids();
    const lot = lotOf();
    const existing = await client(account.key).post('/Integration/Locations', {
      Locations: [
        {
          Id: 'PLANT-MD',
          Details: {
            Name: 'Old name',
            Gln: plant.gln,
            TradePartner: { Id: 'ME', Name: 'Me', ConnectionType: 'SELF' },
            Address: { City: 'Boston', Country: 'US', AddressLine1: '1 Pier' },
          },
        },
      ],
    });
    expect(existing.status).toBe(200);
    const vocabularies = [
      {
        type: 'urn:epcglobal:epcis:vtype:EPCClass',
        vocabularyElementList: [
          {
            id: ids.gtinClass,
            attributes: [{ id: 'urn:epcglobal:cbv:mda#descriptionShort', attribute: 'Atlantic cod fillets' }],
          },
        ],
      },
      {
        type: 'urn:epcglobal:epcis:vtype:BusinessLocation',
        vocabularyElementList: [
          {
            id: ids.sgln(),
            attributes: [
              { id: 'urn:epcglobal:cbv:mda#name', attribute: 'FV Northern Star' },
              { id: 'urn:epcglobal:cbv:mda#countryCode', attribute: 'NO' },
              { id: 'gdst:vesselName', attribute: 'Northern Star' },
              { id: 'gdst:vesselFlagState', attribute: 'NO' },
              { id: 'gdst:imoNumber', attribute: 'IMO9876543' },
              { id: 'https://traceability-dialogue.org/vocab#vesselID', attribute: 'N-123-K' },
            ],
          },
          {
            id: `https://id.gs1.org/414/${plant.gln}`,
            attributes: [{ id: 'cbvmda:name', attribute: 'Processing plant 7' }],
          },
        ],
      },
    ];
    const event = objectEvent({
      quantityList: [{ epcClass: ids.lgtin(lot), quantity: 500, uom: 'KGM' }],
      bizLocation: ids.sgln(),
    });
    const job = await capture(account.key, withMasterData([event], vocabularies));
    expect(job).toMatchObject({ success: true, errors: [] });
    expect((job as unknown as { masterData: unknown }).masterData).toEqual({
      products: [{ id: `https://id.gs1.org/01/${ids.gtin}`, key: ids.gtin, change: 'created', fields: ['name'] }],
      locations: [
        {
          id: `https://id.gs1.org/414/${ids.gln}`,
          key: ids.gln,
          change: 'created',
          fields: ['name', 'address', 'vessel'],
        },
        { id: 'PLANT-MD', key: plant.gln, change: 'updated', fields: ['name'] },
      ],
    });
    // Created by the master data, so not by the events.
    expect(job.createdMasterData).toEqual({ products: [], locations: [] });

    const { rows: products } = await sql().query(
      'SELECT name, unit_of_measure, identifier_type FROM products WHERE account_id = $1 AND gtin = $2',
      [account.id, ids.gtin],
    );
    expect(products).toEqual([{ name: 'Atlantic cod fillets', unit_of_measure: 'KGM', identifier_type: 'Lot' }]);
    const { rows: vessels } = await sql().query(
      'SELECT name, vessel, address FROM locations WHERE account_id = $1 AND gln = $2',
      [account.id, ids.gln],
    );
    expect(vessels).toEqual([
      {
        name: 'FV Northern Star',
        vessel: expect.objectContaining({
          vesselName: 'Northern Star',
          vesselFlagState: 'NO',
          imoNumber: 'IMO9876543',
          vesselRegistration: 'N-123-K',
        }),
        address: expect.objectContaining({ country: 'NO' }),
      },
    ]);
    const { rows: plants } = await sql().query(
      'SELECT name, address FROM locations WHERE account_id = $1 AND external_id = $2',
      [account.id, 'PLANT-MD'],
    );
    expect(plants).toEqual([{ name: 'Processing plant 7', address: expect.objectContaining({ city: 'Boston' }) }]);

    // The same master data again changes nothing.
    const again = await capture(
      account.key,
      withMasterData(
        [
          objectEvent({
            quantityList: [{ epcClass: ids.lgtin(lot), quantity: 1, uom: 'KGM' }],
            bizLocation: ids.sgln(),
          }),
        ],
        vocabularies,
      ),
    );
    expect((again as unknown as { masterData: unknown }).masterData).toEqual({ products: [], locations: [] });
  });

  it('a product or location of no GS1 key (GDST URNs) is kept under its URI', async () => {
    const place = `urn:gdst:example.org:location:loc:${lotOf()}`;
    const job = await capture(
      account.key,
      withMasterData(
        [],
        [
          {
            type: 'urn:epcglobal:epcis:vtype:BusinessLocation',
            vocabularyElementList: [{ id: place, attributes: [{ id: 'cbvmda:name', attribute: 'Landing dock' }] }],
          },
        ],
      ),
    );
    expect((job as unknown as { masterData: unknown }).masterData).toEqual({
      products: [],
      locations: [{ id: place, key: place, change: 'created', fields: ['name'] }],
    });
  });

  it('a vocabulary element id longer than the service keeps is a 400 naming it; nothing is stored', async () => {
    const ids = gs1Ids();
    const before = await rowCounts(account.id, ['events', 'products', 'locations']);
    const refused = await client(account.key).post(
      '/epcis/capture',
      withMasterData(
        [
          objectEvent({
            quantityList: [{ epcClass: ids.lgtin(lotOf()), quantity: 1, uom: 'KGM' }],
            bizLocation: ids.sgln(),
          }),
        ],
        [
          {
            type: 'urn:epcglobal:epcis:vtype:BusinessLocation',
            vocabularyElementList: [{ id: `urn:example:warehouse:${'7'.repeat(1001)}`, attributes: [] }],
          },
        ],
      ),
    );
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.errors)).toEqual([
      '/epcisHeader/epcisMasterData/vocabularyList/0/vocabularyElementList/0/id',
    ]);
    expect(await rowCounts(account.id, ['events', 'products', 'locations'])).toEqual(before);
  });
});
