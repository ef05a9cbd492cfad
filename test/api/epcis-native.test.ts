import { gs1SchemaIssues } from '../../domain/epcis/json-schema';
import { createAccount, type TestAccount } from '../factories/accounts';
import { capture, epcisDocument, gs1Ids, lotOf, objectEvent } from '../factories/epcis';
import { aggregation, commission, decommission, observe, receive, ship, transform, uid } from '../factories/events';
import type { ProductInstancePayload } from '../../domain/events';
import { client } from '../helpers/http';

type Event = Record<string, unknown>;
const eventsOf = (body: { epcisBody: { queryResults: { resultsBody: { eventList: Event[] } } } }): Event[] =>
  body.epcisBody.queryResults.resultsBody.eventList;

/** A product with a GTIN, carried inline: the GTIN is what EPCIS names it by. */
const gtinInstance = (productId: string, gtin: string, lot: string, quantity: number): ProductInstancePayload => ({
  Quantity: quantity,
  LotSerial: lot,
  Product: {
    Id: productId,
    Details: {
      Name: `Product ${productId}`,
      SimpleUnitOfMeasurement: 'kg',
      SharingPolicy: 'Open',
      ProductIdentifierType: 'Lot',
      GTIN: gtin,
    },
  },
});

describe('Our own events served as EPCIS events (one store)', () => {
  let account: TestAccount;
  const ids = gs1Ids();
  const outputIds = gs1Ids();
  const lot = lotOf();
  const outputLot = lotOf();
  const productId = uid('COD');
  const plant = uid('PLANT');
  const sent: Record<string, string> = {};

  beforeAll(async () => {
    account = await createAccount('epcis-native');
    const at = (time: string) => ({ location: plant, time });
    const cod = (quantity: number) => gtinInstance(productId, ids.gtin, lot, quantity);
    const events = [
      commission(at('2024-03-01T10:00:00Z'), cod(100)),
      receive(at('2024-03-01T11:00:00Z'), cod(10)),
      ship(at('2024-03-01T12:00:00Z'), cod(5)),
      observe(at('2024-03-01T13:00:00Z'), cod(1)),
      decommission(at('2024-03-01T14:00:00Z'), cod(2)),
      transform(at('2024-03-01T15:00:00Z'), [cod(20)], [gtinInstance(uid('FILLET'), outputIds.gtin, outputLot, 15)]),
      aggregation('aggregation', at('2024-03-01T16:00:00Z'), 'PALLET-1', cod(3)),
      aggregation('disaggregation', at('2024-03-01T17:00:00Z'), 'PALLET-1', cod(3)),
    ];
    const response = await client(account.key).post('/Integration/Events', { Events: events });
    expect(response.status).toBe(200);
    for (const result of response.body.result) sent[result.type] = `urn:uuid:${result.id}`;
  });

  it('every one of the eight types appears in /epcis/events as the README maps it, valid against GS1’s schema', async () => {
    const response = await client(account.key).get('/epcis/events');
    expect(response.status).toBe(200);
    expect(gs1SchemaIssues(response.body)).toEqual([]);
    const events = eventsOf(response.body);
    const summary = events.map((e) => [e.eventID, e.type, e.action ?? null, e.bizStep, e.disposition]);
    expect(summary).toEqual([
      [sent.Commission, 'ObjectEvent', 'ADD', 'commissioning', 'active'],
      [sent.Receive, 'ObjectEvent', 'OBSERVE', 'receiving', 'in_progress'],
      [sent.Ship, 'ObjectEvent', 'OBSERVE', 'shipping', 'in_transit'],
      [sent.Observe, 'ObjectEvent', 'OBSERVE', 'inspecting', 'active'],
      [sent.Decommission, 'ObjectEvent', 'DELETE', 'decommissioning', 'inactive'],
      [sent.Transform, 'TransformationEvent', null, 'commissioning', 'active'],
      [sent.Aggregation, 'AggregationEvent', 'ADD', 'packing', 'in_progress'],
      [sent.Disaggregation, 'AggregationEvent', 'DELETE', 'unpacking', 'in_progress'],
    ]);
    const [first] = events;
    expect(first).toMatchObject({
      eventTime: '2024-03-01T10:00:00.000Z',
      eventTimeZoneOffset: '+00:00',
      epcList: [],
      quantityList: [{ epcClass: `https://id.gs1.org/01/${ids.gtin}/10/${lot}`, quantity: 100, uom: 'KGM' }],
      readPoint: { id: expect.stringMatching(/^urn:gdst:/) },
    });
    expect(events[2].destinationList).toEqual([{ type: 'location', destination: expect.stringMatching(/^urn:gdst:/) }]);
    expect(events[5]).toMatchObject({
      inputQuantityList: [{ epcClass: `https://id.gs1.org/01/${ids.gtin}/10/${lot}`, quantity: 20, uom: 'KGM' }],
      outputQuantityList: [
        { epcClass: `https://id.gs1.org/01/${outputIds.gtin}/10/${outputLot}`, quantity: 15, uom: 'KGM' },
      ],
    });
    expect(events[6].parentID).toMatch(/^urn:gdst:.*\.lot\.PALLET-1$/);
  });

  it('is found by the EPCIS query parameters: by LGTIN, by type and step, by its eventID', async () => {
    const api = client(account.key);
    const byClass = await api.get(`/epcis/events?MATCH_epcClass=${encodeURIComponent(ids.lgtin(lot))}`);
    expect(eventsOf(byClass.body).map((e) => e.eventID)).toEqual([
      sent.Commission,
      sent.Receive,
      sent.Ship,
      sent.Observe,
      sent.Decommission,
      sent.Aggregation,
      sent.Disaggregation,
    ]);
    const byInput = await api.get(
      `/epcis/events?MATCH_inputEPCClass=${encodeURIComponent(`https://id.gs1.org/01/${ids.gtin}`)}`,
    );
    expect(eventsOf(byInput.body).map((e) => e.eventID)).toEqual([sent.Transform]);
    const shipped = await api.get('/epcis/events?eventType=ObjectEvent&EQ_bizStep=shipping');
    expect(eventsOf(shipped.body).map((e) => e.eventID)).toEqual([sent.Ship]);
    const one = await api.get(`/epcis/events/${encodeURIComponent(sent.Transform)}`);
    expect(eventsOf(one.body).map((e) => e.type)).toEqual(['TransformationEvent']);
  });

  it('is found by quantity and by EPC pattern, and never by a persistent disposition it cannot have', async () => {
    const api = client(account.key);
    const found = async (params: string) => {
      const response = await api.get(`/epcis/events?${params}`);
      expect({ params, status: response.status }).toEqual({ params, status: 200 });
      return eventsOf(response.body).map((e) => e.eventID);
    };
    // Quantities: commission 100, receive 10, ship 5, observe 1, decommission 2, transform 20 → 15, aggregations 3.
    expect(await found('GE_quantity=15')).toEqual([sent.Commission, sent.Transform]);
    expect(await found('EQ_quantity=15')).toEqual([sent.Transform]);
    expect(await found('LT_quantity=3')).toEqual([sent.Observe, sent.Decommission]);
    // In the product's unit (kg): 33 lb is 15 kg.
    expect(await found('GE_quantity_LBR=33')).toEqual([sent.Commission, sent.Transform]);
    expect(await found('GE_quantity_LTR=0')).toEqual([]);
    expect(
      await found(
        `MATCH_epcClass=${encodeURIComponent(`urn:epc:idpat:sgtin:${ids.companyPrefix}.*.*`)}&EQ_bizStep=shipping`,
      ),
    ).toEqual([sent.Ship]);
    expect(
      await found(`MATCH_outputEPCClass=${encodeURIComponent(`urn:epc:idpat:sgtin:${outputIds.companyPrefix}.*.*`)}`),
    ).toEqual([sent.Transform]);
    expect(await found('EQ_persistentDisposition_set=active')).toEqual([]);
  });

  it('an event captured through EPCIS is listed by /epcis/Events/details like any other', async () => {
    const epcisLot = lotOf();
    const job = await capture(
      account.key,
      epcisDocument([
        objectEvent({ quantityList: [{ epcClass: ids.lgtin(epcisLot), quantity: 7 }], readPoint: ids.sgln() }),
      ]),
    );
    expect(job.success).toBe(true);
    const details = await client(account.key).get(`/epcis/Events/details?LotSerial=${epcisLot}`, {
      accept: 'application/json',
    });
    expect(details.status).toBe(200);
    expect(details.body.results).toEqual([
      expect.objectContaining({
        eventType: 'Commission',
        lotSerial: epcisLot,
        quantity: 7,
        productName: `Product ${productId}`,
      }),
    ]);
    // The GTIN named the product the batch-style events created: one product, whichever interface named it.
  });
});
