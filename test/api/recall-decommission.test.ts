import { recallReference } from '../../domain/recall-decommission';
import { threeAccountChain } from '../factories/trace-chain';
import { sql } from '../helpers/db';
import { client } from '../helpers/http';

type Chain = Awaited<ReturnType<typeof threeAccountChain>>;

/**
 * A holder answers a recall with what it destroyed, naming where (`DestroyedAt`): the service records
 * the destroyed quantity as a decommission event through the batch pipeline, so the holder's inventory
 * agrees with its answer. In the chain of test/factories/trace-chain.ts the processor received 60 of lot L
 * at its dock and made fillet from 50 of it: 10 of L are left there.
 */
describe('a recall answer that records its destroyed quantities as decommission events', () => {
  let chain: Chain;
  let recallId: string;
  const processor = () => client(chain.processor.key);
  const answer = (lot: Record<string, unknown>, quantityOnHand = 0) =>
    processor().post(`/Integration/Recalls/${recallId}/acknowledge`, {
      QuantityOnHand: quantityOnHand,
      Action: 'Destroyed at the dock.',
      Lots: [{ LotSerial: chain.lot, ...lot }],
    });
  /** What the processor's dock holds of lot L now, by GET /Integration/Inventory. */
  const onHand = async (): Promise<number> => {
    const query = new URLSearchParams({
      ProductIds: chain.products.fishB.Id,
      LocationIds: chain.dock.Id,
      AsOf: new Date(Date.now() + 60_000).toISOString(),
    });
    const body = (await processor().get(`/Integration/Inventory?${query.toString()}`)).body as {
      products: { lots: { lotSerial: string; inventory: { quantityAvailable: number }[] }[] }[];
    };
    const lot = body.products[0].lots.find((l) => l.lotSerial === chain.lot)!;
    return lot.inventory[0].quantityAvailable;
  };
  /** The decommission events of the recall in the processor's account, as stored. */
  const decommissions = async () =>
    (
      await sql().query(
        `SELECT e.external_event_id AS external_id, el.lot_serial, el.quantity::float AS quantity, l.external_id AS location
           FROM events e JOIN event_lines el ON el.event_id = e.id JOIN locations l ON l.id = e.location_id
          WHERE e.account_id = $1 AND e.type = 'Decommission' AND e.reference_document_id = $2 ORDER BY e.seq`,
        [chain.processor.id, recallReference(recallId)],
      )
    ).rows as { external_id: string; lot_serial: string; quantity: number; location: string }[];
  const storedAnswer = async () =>
    (await processor().get(`/Integration/Recalls/${recallId}`)).body.acknowledgement as {
      lots: { destroyed: number }[];
    } | null;

  beforeAll(async () => {
    chain = await threeAccountChain();
    const issued = await client(chain.farm.key).post('/Integration/Recalls', {
      ProductId: chain.products.fishA.Id,
      LotSerial: chain.lot,
      Reason: 'Listeria in a retained sample.',
    });
    expect(issued.status).toBe(201);
    recallId = issued.body.id;
  });

  it('refuses a location the holder does not have, naming DestroyedAt; nothing is stored', async () => {
    expect(await onHand()).toBe(10);
    const refused = await answer({ Destroyed: 4, DestroyedAt: 'NO-SUCH-PLACE' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors['Lots[0].DestroyedAt'][0]).toContain('NO-SUCH-PLACE');
    expect(await storedAnswer()).toBeNull();
    expect(await decommissions()).toEqual([]);
    expect(await onHand()).toBe(10);
  });

  it('records the destroyed quantity at the location named: the inventory drops by it', async () => {
    const answered = await answer({ OnHand: 6, Destroyed: 4, SoldOn: 50, DestroyedAt: chain.dock.Id }, 6);
    expect(answered.status).toBe(200);
    expect(answered.body.acknowledgement.lots).toEqual([
      { lotSerial: chain.lot, onHand: 6, returned: 0, destroyed: 4, soldOn: 50 },
    ]);
    expect(await onHand()).toBe(6);
    expect(await decommissions()).toEqual([
      { external_id: expect.stringContaining(recallId), lot_serial: chain.lot, quantity: 4, location: chain.dock.Id },
    ]);
    // Through the pipeline: its batch is stored, completed, in the processor's account.
    const { rows } = await sql().query(
      `SELECT status FROM batches WHERE account_id = $1 AND request->'Events'->0->>'Id' = $2`,
      [chain.processor.id, (await decommissions())[0].external_id],
    );
    expect(rows).toEqual([{ status: 'Completed' }]);
    // In EPCIS terms a destruction: an ObjectEvent DELETE, destroying, destroyed, of 4 of the lot.
    const epcis = (await processor().get('/epcis/events?EQ_bizStep=destroying')).body;
    const events = epcis.epcisBody.queryResults.resultsBody.eventList as Record<string, unknown>[];
    expect(events.map((e) => [e.type, e.action, e.bizStep, e.disposition])).toEqual([
      ['ObjectEvent', 'DELETE', 'destroying', 'destroyed'],
    ]);
    expect(events[0].quantityList).toEqual([expect.objectContaining({ quantity: 4 })]);
  });

  it('records only what is destroyed beyond what is recorded for the recall already', async () => {
    // The same answer again records nothing more.
    expect((await answer({ OnHand: 6, Destroyed: 4, SoldOn: 50, DestroyedAt: chain.dock.Id }, 6)).status).toBe(200);
    expect(await onHand()).toBe(6);
    // A total of 7 destroyed records the 3 more.
    expect((await answer({ OnHand: 3, Destroyed: 7, SoldOn: 50, DestroyedAt: chain.dock.Id }, 3)).status).toBe(200);
    expect(await onHand()).toBe(3);
    expect((await decommissions()).map((d) => d.quantity)).toEqual([4, 3]);
    // Without DestroyedAt, the answer records nothing (the holder records its destruction itself).
    expect((await answer({ OnHand: 2, Destroyed: 8, SoldOn: 50 }, 2)).status).toBe(200);
    expect(await onHand()).toBe(3);
    expect((await storedAnswer())!.lots[0].destroyed).toBe(8);
  });

  it('refuses more than the location holds, or less than recorded, naming Destroyed; the earlier answer stays', async () => {
    const tooMuch = await answer({ OnHand: 0, Destroyed: 30, SoldOn: 20, DestroyedAt: chain.dock.Id });
    expect(tooMuch.status).toBe(400);
    const [problem] = tooMuch.body.errors['Lots[0].Destroyed'] as string[];
    // 30 in total, 7 recorded: 23 more asked of the 3 on hand; at most 7 + 3.
    expect(problem).toBe(
      `Destroyed 30 would record 23 more of ${chain.lot} as destroyed at ${chain.dock.Id}, which holds 3 (7 is recorded for this ` +
        'recall already). Give at most 10, or leave DestroyedAt out to record nothing.',
    );
    const tooLittle = await answer({ OnHand: 0, Destroyed: 5, SoldOn: 50, DestroyedAt: chain.dock.Id });
    expect(tooLittle.status).toBe(400);
    expect(tooLittle.body.errors['Lots[0].Destroyed'][0]).toContain('7');
    // Nothing of either is stored: the answer, the events and the inventory are as they were.
    expect((await storedAnswer())!.lots[0].destroyed).toBe(8);
    expect((await decommissions()).map((d) => d.quantity)).toEqual([4, 3]);
    expect(await onHand()).toBe(3);
  });

  it('the issuer sees the destroyed quantity the holder answered', async () => {
    const view = (await client(chain.farm.key).get(`/Integration/Recalls/${recallId}`)).body;
    const holder = view.holders.find((h: { account: string }) => h.account === chain.processor.name);
    expect(holder.quantities[0]).toMatchObject({ quantity: 60, onHand: 2, destroyed: 8, soldOn: 50, accountedFor: 60 });
  });
});
