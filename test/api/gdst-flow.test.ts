import { checkDigit } from '../../domain/epcis/identifiers';
import { createAccount, type TestAccount } from '../factories/accounts';
import { EPCIS_CONTEXT, capture, epcisDocument, eventIdOf, gs1Ids, lotOf, objectEvent } from '../factories/epcis';
import { apiUrl, client, request } from '../helpers/http';
import {
  digitalLinkPath,
  epcisQueryInterfaceUrl,
  resolveMasterData,
  traceback,
  type EpcisFormat,
} from '../helpers/opentraceability';

type Event = Record<string, unknown> & { eventID: string; type: string };
const eventsOf = (body: { epcisBody: { queryResults: { resultsBody: { eventList: Event[] } } } }): Event[] =>
  body.epcisBody.queryResults.resultsBody.eventList;

/** The context GDST 1.2 JSON-LD documents carry. */
const GDST_CONTEXT = [
  ...EPCIS_CONTEXT,
  { gdst: 'https://traceability-dialogue.org/vocab/', cbvmda: 'urn:epcglobal:cbv:mda' },
];

/**
 * GDST's flow end to end, as its capability tool runs it: a supplier's GDST 1.2 document is captured
 * (fishing, landing, processing, shipping, receiving, with ILMD and certificates); the tool resolves the
 * lot it was given through the Digital Link resolver, queries the EPCIS interface the link names with
 * GDST's headers, and traces back through the transformation to the catch.
 */
describe('GDST 1.2 flow: capture, resolve, query, trace back to the catch', () => {
  let account: TestAccount;
  const whole = gs1Ids();
  const fillets = gs1Ids();
  const catchLot = lotOf();
  const filletLot = lotOf();
  const vessel = whole.sgln();
  const port = whole.sgln('2');
  const plant = whole.sgln('3');
  const buyer = fillets.sgln('9');
  const owner = `urn:epc:id:pgln:${whole.companyPrefix}.00001`;
  /** The owner's PGLN as GS1 keys it, a trade partner of the account. */
  const ownerPgln = `${whole.companyPrefix}00001${checkDigit(`${whole.companyPrefix}00001`)}`;
  const provider = `urn:epc:id:sgln:${whole.companyPrefix}.00001.0`;
  const certificate = (type: string, id: string) => ({
    'gdst:certificationType': `urn:gdst:certType:${type}`,
    certificationAgency: 'Fisheries Directorate',
    certificationStandard: 'National licence',
    certificationIdentification: id,
  });
  const kdes = { 'gdst:productOwner': owner, 'cbvmda:informationProvider': provider };
  const event = <T extends Record<string, unknown>>(fields: T) => ({
    eventID: eventIdOf(),
    eventTimeZoneOffset: '+00:00',
    ...fields,
  });

  const fishing = event({
    type: 'ObjectEvent',
    eventTime: '2024-05-01T06:00:00.000Z',
    action: 'ADD',
    bizStep: 'urn:gdst:bizStep:fishingEvent',
    disposition: 'active',
    epcList: [],
    bizLocation: { id: vessel },
    quantityList: [{ epcClass: whole.lgtin(catchLot), quantity: 1000, uom: 'KGM' }],
    ilmd: {
      'cbvmda:vesselCatchInformationList': {
        'cbvmda:vesselCatchInformation': [
          {
            'cbvmda:vesselName': 'Northern Star',
            'cbvmda:vesselID': 'N-123-K',
            'gdst:imoNumber': 'IMO9876543',
            'cbvmda:vesselFlagState': 'NO',
            'cbvmda:catchArea': 'urn:gdst:fao:27',
            'cbvmda:fishingGearTypeCode': 'urn:gdst:gear:03.12',
          },
        ],
      },
      'cbvmda:certificationList': {
        certification: [certificate('fishingAuth', 'NO-FA-77'), certificate('harvestCert', 'MSC-C-1')],
      },
    },
    ...kdes,
  });
  const landing = event({
    type: 'ObjectEvent',
    eventTime: '2024-05-03T08:00:00.000Z',
    action: 'OBSERVE',
    bizStep: 'urn:gdst:bizStep:landing',
    disposition: 'active',
    epcList: [],
    bizLocation: { id: port },
    quantityList: [{ epcClass: whole.lgtin(catchLot), quantity: 1000, uom: 'KGM' }],
    'cbvmda:certificationList': { certification: [certificate('landingAuth', 'NO-LA-5')] },
    ...kdes,
  });
  const processing = event({
    type: 'TransformationEvent',
    eventTime: '2024-05-04T10:00:00.000Z',
    bizStep: 'commissioning',
    disposition: 'active',
    bizLocation: { id: plant },
    inputQuantityList: [{ epcClass: whole.lgtin(catchLot), quantity: 1000, uom: 'KGM' }],
    outputQuantityList: [{ epcClass: fillets.lgtin(filletLot), quantity: 400, uom: 'KGM' }],
    ilmd: { 'cbvmda:productionDate': '2024-05-04', 'cbvmda:countryOfOrigin': 'NO' },
    ...kdes,
  });
  const shipping = event({
    type: 'ObjectEvent',
    eventTime: '2024-05-05T10:00:00.000Z',
    action: 'OBSERVE',
    bizStep: 'shipping',
    disposition: 'in_transit',
    epcList: [],
    bizLocation: { id: plant },
    quantityList: [{ epcClass: fillets.lgtin(filletLot), quantity: 400, uom: 'KGM' }],
    sourceList: [{ type: 'owning_party', source: owner }],
    destinationList: [{ type: 'owning_party', destination: `urn:epc:id:pgln:${fillets.companyPrefix}.00009` }],
    ...kdes,
  });
  // The buyer's system left the product owner out: a warning, not a refusal.
  const receiving = event({
    type: 'ObjectEvent',
    eventTime: '2024-05-07T10:00:00.000Z',
    action: 'OBSERVE',
    bizStep: 'receiving',
    disposition: 'in_progress',
    epcList: [],
    bizLocation: { id: buyer },
    quantityList: [{ epcClass: fillets.lgtin(filletLot), quantity: 400, uom: 'KGM' }],
    'cbvmda:informationProvider': provider,
  });

  /** What GDST's reference client sends with every query. */
  const GDST_HEADERS = (key: string) => ({
    'X-API-Key': key,
    Accept: 'application/json',
    'GS1-EPCIS-Version': '2.0',
    'GS1-EPCIS-Min': '2.0',
    'GS1-EPCIS-Max': '2.0',
    'GS1-CBV-Version': '2.0',
    'GS1-EPC-Format': 'Always_EPC_URN',
    'GS1-CBV-XML-Format': 'Always_URN',
  });

  beforeAll(async () => {
    account = await createAccount('gdst-flow');
    const partner = await client(account.key).post('/Integration/Locations', {
      Locations: [
        {
          Id: 'OWNER-OFFICE',
          Details: {
            Name: 'Owner’s office',
            TradePartner: { Id: 'OWNER', Name: 'Northern Fisheries AS', ConnectionType: 'SUPPLIER', Pgln: ownerPgln },
            Address: { City: 'Tromsø', Country: 'NO', AddressLine1: '1 Kai' },
          },
        },
      ],
    });
    expect(partner.status).toBe(200);
  });

  it('captures the supplier’s GDST 1.2 document; missing KDEs are warnings listed per event, never a refusal', async () => {
    const document = {
      '@context': GDST_CONTEXT,
      type: 'EPCISDocument',
      schemaVersion: '2.0',
      creationDate: '2024-05-08T00:00:00Z',
      epcisHeader: {
        epcisMasterData: {
          vocabularyList: [
            {
              type: 'urn:epcglobal:epcis:vtype:EPCClass',
              vocabularyElementList: [
                {
                  id: whole.gtinClass,
                  attributes: [{ id: 'cbvmda:descriptionShort', attribute: 'Atlantic cod, whole' }],
                },
                {
                  id: fillets.gtinClass,
                  attributes: [{ id: 'cbvmda:descriptionShort', attribute: 'Atlantic cod fillets' }],
                },
              ],
            },
            {
              type: 'urn:epcglobal:epcis:vtype:BusinessLocation',
              vocabularyElementList: [
                {
                  id: vessel,
                  attributes: [
                    { id: 'cbvmda:name', attribute: 'FV Northern Star' },
                    { id: 'cbvmda:vesselName', attribute: 'Northern Star' },
                    { id: 'cbvmda:vesselFlagState', attribute: 'NO' },
                    { id: 'gdst:imoNumber', attribute: 'IMO9876543' },
                  ],
                },
                { id: plant, attributes: [{ id: 'cbvmda:name', attribute: 'Fillet plant' }] },
              ],
            },
          ],
        },
      },
      epcisBody: { eventList: [fishing, landing, processing, shipping, receiving] },
    };
    const job = await capture(account.key, document);
    expect(job).toMatchObject({ success: true, errors: [] });
    const warnings = (job as unknown as { warnings: { type: string }[] }).warnings.filter(
      (w) => w.type === 'MissingGdstKde',
    );
    expect(warnings).toEqual([
      {
        type: 'MissingGdstKde',
        index: 4,
        eventID: receiving.eventID,
        pointer: '/epcisBody/eventList/4/gdst:productOwner',
        title: 'An event lacks a Key Data Element that GDST 1.2 asks for.',
        detail: expect.stringContaining('gdst:productOwner'),
      },
    ]);
  });

  it('resolves the lot, queries the linked EPCIS interface with GDST’s headers, and traces back through the processing to the catch', async () => {
    // 1. The tool starts from the resolver with the lot it was given: `/01/<GTIN-14>/10/<lot>?linkType=gs1:epcis`, its first link.
    expect(digitalLinkPath(fillets.lgtin(filletLot))).toBe(`01/${fillets.gtin}/10/${filletLot}`);
    const link = await epcisQueryInterfaceUrl(account.key, digitalLinkPath(fillets.lgtin(filletLot)));
    const epcis = link!.replace(/\/$/, '');
    expect(epcis).toBe(`${apiUrl()}/epcis`);
    const query = async (params: string) => {
      const response = await request('GET', `${epcis.slice(apiUrl().length)}/events?${params}`, {
        headers: GDST_HEADERS(account.key),
      });
      expect({ params, status: response.status }).toEqual({ params, status: 200 });
      expect(response.headers.get('gs1-epc-format')).toBe('Always_EPC_URN');
      expect(response.headers.get('gs1-cbv-xml-format')).toBe('Always_URN');
      return eventsOf(response.body);
    };

    // 2. The events of the lot, identifiers as EPC URNs.
    const ofFillets = await query(`MATCH_anyEPCClass=${encodeURIComponent(fillets.lgtin(filletLot))}`);
    expect(ofFillets.map((e) => e.eventID)).toEqual([processing.eventID, shipping.eventID, receiving.eventID]);
    const transformation = ofFillets.find((e) => e.type === 'TransformationEvent')!;
    const inputs = (transformation.inputQuantityList as { epcClass: string }[]).map((q) => q.epcClass);
    expect(inputs).toEqual([whole.lgtin(catchLot)]);

    // 3. Back through the transformation to the catch, bounded by the processing time as GDST's traceback does (LE_eventTime).
    const ofCatch = await query(
      `MATCH_anyEPCClass=${encodeURIComponent(inputs[0])}&LE_eventTime=${encodeURIComponent(transformation.eventTime as string)}`,
    );
    expect(ofCatch.map((e) => e.eventID)).toEqual([fishing.eventID, landing.eventID, processing.eventID]);
    const caught = ofCatch.find((e) => e.bizStep === 'urn:gdst:bizStep:fishingEvent')!;
    expect(caught.ilmd).toEqual(fishing.ilmd);
    expect(caught['gdst:productOwner']).toBe(owner);

    // 4. The vessel's master data, asked as JSON-LD: a gs1:Place with GDST's vessel attributes.
    const place = await request('GET', `/414/${whole.gln}?linkType=gs1:masterData`, {
      headers: { 'X-API-Key': account.key, Accept: 'application/ld+json' },
    });
    expect(place.body).toMatchObject({
      '@type': 'gs1:Place',
      name: [{ '@value': 'FV Northern Star' }],
      'cbvmda:vesselName': 'Northern Star',
      'cbvmda:vesselFlagState': 'NO',
      'gdst:imoNumber': 'IMO9876543',
    });
  });

  it('resolves the traced events’ master data as OpenTraceability’s GDST master data resolver does: the products, the vessel, the owner', async () => {
    const link = await epcisQueryInterfaceUrl(account.key, digitalLinkPath(fillets.lgtin(filletLot)));
    const traced = await traceback(account.key, link!, fillets.lgtin(filletLot), 'JSON 2.0');
    const resolved = await resolveMasterData(account.key, traced.events, { gdst: true });
    expect(resolved.errors).toEqual([]);
    // The service does not know the language a name was written in: none is stated.
    const unstated = (value: string) => [{ language: '', value }];
    // Asked by Digital Links and EPC URNs, GS1 keys come back as GTIN-14 and GLN-13: the client, which skips
    // what it holds by the string it asked with, asks again for each event naming them, and gets the same.
    const byId = <T extends { id: string }>(items: T[]) => Object.fromEntries(items.map((item) => [item.id, item]));
    expect(byId(resolved.tradeItems)).toEqual({
      [whole.gtin]: { id: whole.gtin, productName: unstated('Atlantic cod, whole') },
      [fillets.gtin]: { id: fillets.gtin, productName: unstated('Atlantic cod fillets') },
    });
    // The vessel is the GLN itself; the port and the plant are its extensions 2 and 3, known by their Digital Links.
    expect(byId(resolved.locations)[whole.gln]).toEqual({
      id: whole.gln,
      name: unstated('FV Northern Star'),
      vesselName: 'Northern Star',
      vesselFlagState: 'NO',
      imoNumber: 'IMO9876543',
    });
    // The owner (its PGLN, and GDST's information provider as the SGLN of the same GLN), a trade partner of
    // the account; the buyer, no trade partner but named as the shipment's owning destination, by its identity.
    const buyerPgln = `${fillets.companyPrefix}00009${checkDigit(`${fillets.companyPrefix}00009`)}`;
    expect(byId(resolved.parties)).toEqual({
      [ownerPgln]: { id: ownerPgln, organizationName: unstated('Northern Fisheries AS') },
      [buyerPgln]: { id: buyerPgln },
    });
  });

  it.each<EpcisFormat>(['JSON 2.0', 'XML 2.0', 'XML 1.2'])(
    'OpenTraceability’s traceback from the fillet lot’s LGTIN, in %s, finds every event of the chain',
    async (format) => {
      const link = await epcisQueryInterfaceUrl(account.key, digitalLinkPath(fillets.lgtin(filletLot)));
      const results = await traceback(account.key, link!, fillets.lgtin(filletLot), format);
      expect(results.errors).toEqual([]);
      expect(results.events.map((e) => e.eventID).sort()).toEqual(
        [fishing, landing, processing, shipping, receiving].map((e) => e.eventID).sort(),
      );
    },
  );

  it.each<EpcisFormat>(['JSON 2.0', 'XML 2.0', 'XML 1.2'])(
    'OpenTraceability’s traceback, which never follows Link: rel="next", finds all 45 events of a lot in %s',
    async (format) => {
      const many = gs1Ids();
      const lot = lotOf();
      const events = Array.from({ length: 45 }, (_, i) =>
        objectEvent({
          action: 'OBSERVE',
          bizStep: 'inspecting',
          quantityList: [{ epcClass: many.lgtin(lot), quantity: 10, uom: 'KGM' }],
          bizLocation: many.sgln(),
          eventTime: new Date(Date.UTC(2024, 5, 1, 0, i)).toISOString(),
        }),
      );
      expect(await capture(account.key, epcisDocument(events))).toMatchObject({ success: true, errors: [] });
      const link = await epcisQueryInterfaceUrl(account.key, digitalLinkPath(many.lgtin(lot)));
      const results = await traceback(account.key, link!, many.lgtin(lot), format);
      expect(results.errors).toEqual([]);
      const ids = (list: { eventID?: string }[]) => list.map((e) => e.eventID!).sort((a, b) => a.localeCompare(b));
      expect(ids(results.events)).toEqual(ids(events));
    },
  );
});
