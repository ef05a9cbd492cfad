import ExcelJS from 'exceljs';
import { recallWorkflowId, type FollowRecallResult } from '../../domain/recall-contracts';
import { threeAccountChain } from '../factories/trace-chain';
import { apiUrl, client } from '../helpers/http';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { temporalClient } from '../helpers/temporal';

type Chain = Awaited<ReturnType<typeof threeAccountChain>>;
interface Holder {
  account: string;
  state: string;
  progress: string;
  tier: number;
  reminders: string[];
  overdueTime: string | null;
  quantities: Record<string, unknown>[];
}

const typeOf = (request: { body: string }): string => (JSON.parse(request.body) as { type: string }).type;

/**
 * A recall walked from issue to close across the chain of test/factories/trace-chain.ts: the farm ships
 * 60 of lot L to the processor and 20 to another buyer; the processor makes fillet lot F from it and ships
 * 30 to the retailer. The farm recalls L at level B (60%), reminders every 4 s, overdue after one.
 */
describe('a recall from issue to close: pass on, answers per lot, reminders, overdue, effectiveness', () => {
  const temporal = temporalClient();
  let chain: Chain;
  let otherHooks: Receiver;
  let farmHooks: Receiver;
  let recallId: string;
  const issuer = () => client(chain.farm.key);
  const view = async () => (await issuer().get(`/Integration/Recalls/${recallId}`)).body;
  const holder = (body: { holders: Holder[] }, name: string): Holder => body.holders.find((h) => h.account === name)!;

  beforeAll(async () => {
    chain = await threeAccountChain();
    [otherHooks, farmHooks] = await Promise.all([startReceiver(), startReceiver()]);
    await client(chain.other.key).post('/Integration/Webhooks', {
      Url: otherHooks.url,
      Events: ['recall.received', 'recall.reminder', 'recall.closed'],
    });
    await client(chain.farm.key).post('/Integration/Webhooks', {
      Url: farmHooks.url,
      Events: ['recall.acknowledged', 'recall.overdue'],
    });
  });
  afterAll(async () => {
    await Promise.all([otherHooks.close(), farmHooks.close()]);
  });

  it('refuses a strategy that does not hold together, naming the field', async () => {
    const post = (body: object) =>
      issuer().post('/Integration/Recalls', {
        ProductId: chain.products.fishA.Id,
        LotSerial: chain.lot,
        Reason: 'r',
        ...body,
      });
    const noPercent = await post({ EffectivenessCheck: { Level: 'B' } });
    expect(noPercent.status).toBe(400);
    expect(noPercent.body.errors['EffectivenessCheck.Percent'][0]).toContain('between 10 and 100');
    const outOfRange = await post({ EffectivenessCheck: { Level: 'B', Percent: 10 } });
    expect(outOfRange.body.errors).toHaveProperty(['EffectivenessCheck.Percent']);
    const percentWithC = await post({ EffectivenessCheck: { Level: 'C', Percent: 50 } });
    expect(percentWithC.status).toBe(400);
    expect(percentWithC.body.errors).toHaveProperty(['EffectivenessCheck.Level']);
    const depth = await post({ Depth: 'Shelf' });
    expect(depth.status).toBe(400);
    expect(depth.body.errors).toHaveProperty('Depth');
    const every = await post({ Reminders: { EverySeconds: 0 } });
    expect(every.body.errors).toHaveProperty(['Reminders.EverySeconds']);
    // Nothing of a refused request is stored: no consignee got a notice.
    expect((await client(chain.processor.key).get('/Integration/Recalls')).body.totalItems).toBe(0);
  });

  it('issues the recall to the direct consignees with its strategy', async () => {
    const issued = await issuer().post('/Integration/Recalls', {
      ProductId: chain.products.fishA.Id,
      LotSerial: chain.lot,
      Reason: 'Listeria in a retained sample.',
      Depth: 'Retail',
      EffectivenessCheck: { Level: 'B', Percent: 60 },
      Reminders: { EverySeconds: 4, OverdueAfter: 1 },
    });
    expect(issued.status).toBe(201);
    recallId = issued.body.id;
    expect(issued.body.strategy).toEqual({
      depth: 'Retail',
      effectivenessCheck: { level: 'B', percent: 60 },
      reminders: { everySeconds: 4, overdueAfter: 1 },
    });
    expect(
      Object.fromEntries(
        issued.body.holders.map((h: Holder) => [h.account, { tier: h.tier, state: h.state, progress: h.progress }]),
      ),
    ).toEqual({
      [chain.processor.name]: { tier: 1, state: 'notified', progress: 'notified' },
      [chain.other.name]: { tier: 1, state: 'notified', progress: 'notified' },
    });
    const notice = (await client(chain.processor.key).get(`/Integration/Recalls/${recallId}`)).body;
    expect(notice).toMatchObject({
      role: 'holder',
      state: 'notified',
      closed: null,
      strategy: { depth: 'Retail' },
      tier: 1,
      shipped: [{ lotSerial: chain.lot, quantity: 60 }],
      reminders: [],
      overdueTime: null,
    });
  });

  it('takes per-lot answers only for the lots the consignee received, and counts them', async () => {
    const wrongLot = await client(chain.processor.key).post(`/Integration/Recalls/${recallId}/acknowledge`, {
      QuantityOnHand: 10,
      Action: 'x',
      Lots: [{ LotSerial: chain.fillet, OnHand: 10 }],
    });
    expect(wrongLot.status).toBe(400);
    expect(wrongLot.body.errors['Lots[0].LotSerial'][0]).toContain(chain.lot);
    const negative = await client(chain.processor.key).post(`/Integration/Recalls/${recallId}/acknowledge`, {
      QuantityOnHand: 10,
      Action: 'x',
      Lots: [{ LotSerial: chain.lot, Destroyed: -1 }],
    });
    expect(negative.body.errors).toHaveProperty(['Lots[0].Destroyed']);
    // 61 accounted for of the 60 shipped: refused as a whole, naming the lot, the sum and what was shipped.
    const over = await client(chain.processor.key).post(`/Integration/Recalls/${recallId}/acknowledge`, {
      QuantityOnHand: 10,
      Action: 'x',
      Lots: [{ LotSerial: chain.lot, OnHand: 10, Destroyed: 20, SoldOn: 31 }],
    });
    expect(over.status).toBe(400);
    expect(over.body.errors['Lots[0]'][0]).toBe(
      `OnHand 10 + Destroyed 20 + SoldOn 31 = 61 KGM of ${chain.lot}, more than the 60 shipped to you: the figures say what became of what you received, together at most 60.`,
    );
    expect((await client(chain.processor.key).get(`/Integration/Recalls/${recallId}`)).body.state).toBe('notified');

    // The processor: of 60 received, 10 on hand, 20 destroyed, 30 sold on (as fillet): all accounted for.
    const answered = await client(chain.processor.key).post(`/Integration/Recalls/${recallId}/acknowledge`, {
      QuantityOnHand: 10,
      Action: 'Quarantined; the rest destroyed or shipped to our customer.',
      Lots: [{ LotSerial: chain.lot, OnHand: 10, Destroyed: 20, SoldOn: 30 }],
    });
    expect(answered.status).toBe(200);
    expect(answered.body.acknowledgement.lots).toEqual([
      { lotSerial: chain.lot, onHand: 10, returned: 0, destroyed: 20, soldOn: 30 },
    ]);
    const passed = await client(chain.processor.key).post(`/Integration/Recalls/${recallId}/pass-on`);
    expect(passed.body.reached.map((r: { account: string }) => r.account)).toEqual([chain.retailer.name]);
  });

  it('refuses to close while the level is not met unless the issuer says why', async () => {
    // 1 of 3 consignees answered; level B at 60% takes ceil(1.8) = 2.
    const body = await view();
    expect(body.effectiveness).toMatchObject({ consignees: 3, acknowledged: 1, required: 2, levelMet: false });
    const refused = await issuer().post(`/Integration/Recalls/${recallId}/close`, {});
    expect(refused.status).toBe(400);
    expect(refused.body.errors.Reason[0]).toContain('not met');
    // Only the issuer closes it.
    expect((await client(chain.processor.key).post(`/Integration/Recalls/${recallId}/close`, {})).status).toBe(404);
  });

  it('reminds the consignee that never answers, then marks it overdue and tells the issuer', async () => {
    // The retailer, reached through the processor, answers for 25 of the 30 it received.
    const retailer = await client(chain.retailer.key).post(`/Integration/Recalls/${recallId}/acknowledge`, {
      QuantityOnHand: 20,
      Action: 'Pulled from shelves; 5 returned.',
      Lots: [{ LotSerial: chain.fillet, OnHand: 20, Returned: 5 }],
    });
    expect(retailer.status).toBe(200);

    const [reminder] = await otherHooks.waitFor(1, (r) => typeOf(r) === 'recall.reminder', 20_000);
    expect(JSON.parse(reminder.body).data).toMatchObject({ id: recallId, reminder: 1, lots: [chain.lot] });
    const [overdue] = await farmHooks.waitFor(1, (r) => typeOf(r) === 'recall.overdue', 20_000);
    expect(JSON.parse(overdue.body).data).toEqual({
      id: recallId,
      overdue: [{ account: chain.other.name, lots: [chain.lot], reminders: 1 }],
    });

    const body = await view();
    const other = holder(body, chain.other.name);
    expect(other).toMatchObject({
      state: 'notified',
      reminders: [expect.any(String)],
      overdueTime: expect.any(String),
    });
    // Those that answered in time were never reminded.
    expect(holder(body, chain.processor.name).reminders).toEqual([]);
    expect(holder(body, chain.retailer.name).reminders).toEqual([]);
    // The consignee sees its reminders in its notice list.
    const [notice] = (await client(chain.other.key).get('/Integration/Recalls')).body.results;
    expect(notice).toMatchObject({ id: recallId, reminders: [expect.any(String)], overdueTime: expect.any(String) });
  });

  it('computes the effectiveness per consignee and in total, as counted by hand', async () => {
    const body = await view();
    const figures = (name: string) => holder(body, name).quantities.map(({ unit: _unit, ...rest }) => rest);
    expect(figures(chain.processor.name)).toEqual([
      {
        lotSerial: chain.lot,
        quantity: 60,
        onHand: 10,
        returned: 0,
        destroyed: 20,
        soldOn: 30,
        accountedFor: 60,
        outstanding: 0,
      },
    ]);
    expect(figures(chain.retailer.name)).toEqual([
      {
        lotSerial: chain.fillet,
        quantity: 30,
        onHand: 20,
        returned: 5,
        destroyed: 0,
        soldOn: 0,
        accountedFor: 25,
        outstanding: 5,
      },
    ]);
    expect(figures(chain.other.name)).toEqual([
      {
        lotSerial: chain.lot,
        quantity: 20,
        onHand: 0,
        returned: 0,
        destroyed: 0,
        soldOn: 0,
        accountedFor: 0,
        outstanding: 20,
      },
    ]);
    expect(Object.fromEntries(body.holders.map((h: Holder) => [h.account, [h.state, h.progress]]))).toEqual({
      [chain.processor.name]: ['acknowledged', 'acted'],
      [chain.retailer.name]: ['acknowledged', 'acknowledged'],
      [chain.other.name]: ['notified', 'notified'],
    });
    // By hand, per consignee (processor, retailer, other): shipped 60 + 30 + 20 = 110; on hand 10 + 20 + 0 = 30;
    // returned 0 + 5 + 0 = 5; destroyed 20; sold on 30; accounted for 60 + 25 + 0 = 85; outstanding 0 + 5 + 20 = 25.
    // Answered: processor and retailer, 2 of 3; level B at 60% takes ceil(3 × 0.6) = 2: met. Acted: the processor alone.
    expect(body.effectiveness).toEqual({
      consignees: 3,
      reached: 3,
      acknowledged: 2,
      acted: 1,
      overdue: 1,
      checkPercent: 60,
      required: 2,
      levelMet: true,
      quantities: [
        {
          unit: expect.any(String),
          shipped: 110,
          onHand: 30,
          returned: 5,
          destroyed: 20,
          soldOn: 30,
          accountedFor: 85,
          outstanding: 25,
        },
      ],
    });
  });

  it('gives the issuer the same figures as CSV, one row per consignee and lot; nobody else gets them', async () => {
    const csv = await issuer().get(`/Integration/Recalls/${recallId}/effectiveness.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, ...rows] = csv.text
      .trimEnd()
      .split('\n')
      .map((line) => line.split(','));
    const column = (name: string) => header.indexOf(name);
    expect(header).toEqual(expect.arrayContaining(['Consignee', 'Lot', 'Shipped', 'Accounted For', 'Outstanding']));
    const byConsignee = Object.fromEntries(
      rows.map((r) => [
        r[column('Consignee')],
        [
          r[column('Tier')],
          r[column('Lot')],
          r[column('Shipped')],
          r[column('Accounted For')],
          r[column('Outstanding')],
        ],
      ]),
    );
    expect(byConsignee).toEqual({
      [chain.processor.name]: ['1', chain.lot, '60', '60', '0'],
      [chain.other.name]: ['1', chain.lot, '20', '0', '20'],
      [chain.retailer.name]: ['2', chain.fillet, '30', '25', '5'],
    });
    expect((await client(chain.processor.key).get(`/Integration/Recalls/${recallId}/effectiveness.csv`)).status).toBe(
      404,
    );
  });

  it('gives the issuer the figures as XLSX: the CSV rows as numbers, and the totals with the level', async () => {
    const response = await fetch(`${apiUrl()}/Integration/Recalls/${recallId}/effectiveness.xlsx`, {
      headers: { 'X-API-KEY': chain.farm.key },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="recall-${recallId}-effectiveness.xlsx"`,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Consignees', 'Totals']);
    const rowsOf = (name: string) => {
      const sheet = workbook.getWorksheet(name)!;
      const values = (n: number) => (sheet.getRow(n).values as ExcelJS.CellValue[]).slice(1);
      const header = values(1) as string[];
      // An empty cell is a hole in exceljs's values: read by the header's columns.
      return Array.from({ length: sheet.rowCount - 1 }, (_, i) => {
        const row = values(i + 2);
        return Object.fromEntries(header.map((h, c) => [h, row[c] ?? null]));
      });
    };
    const pick = (row: Record<string, unknown>, ...columns: string[]) => columns.map((c) => row[c]);
    const consignees = rowsOf('Consignees');
    // The CSV's figures, as numbers a spreadsheet sums.
    expect(
      Object.fromEntries(
        consignees.map((r) => [
          r.Consignee,
          pick(
            r,
            'Tier',
            'Lot',
            'Shipped',
            'On Hand',
            'Returned',
            'Destroyed',
            'Sold On',
            'Accounted For',
            'Outstanding',
          ),
        ]),
      ),
    ).toEqual({
      [chain.processor.name]: [1, chain.lot, 60, 10, 0, 20, 30, 60, 0],
      [chain.other.name]: [1, chain.lot, 20, 0, 0, 0, 0, 0, 20],
      [chain.retailer.name]: [2, chain.fillet, 30, 20, 5, 0, 0, 25, 5],
    });
    // By hand: shipped 60 + 20 + 30 = 110; accounted for 60 + 0 + 25 = 85; out 0 + 20 + 5 = 25; 2 of 3
    // answered, level B at 60% takes ceil(3 × 0.6) = 2: met.
    const [totals, ...more] = rowsOf('Totals');
    expect(more).toEqual([]);
    expect(
      pick(totals, 'Lot', 'Check Level', 'Check Percent', 'Consignees', 'Acknowledged', 'Acted', 'Overdue', 'Required'),
    ).toEqual([chain.lot, 'B', 60, 3, 2, 1, 1, 2]);
    expect(totals['Level Met']).toBe('yes');
    expect(
      pick(totals, 'Shipped', 'On Hand', 'Returned', 'Destroyed', 'Sold On', 'Accounted For', 'Outstanding'),
    ).toEqual([110, 30, 5, 20, 30, 85, 25]);
    const stranger = await fetch(`${apiUrl()}/Integration/Recalls/${recallId}/effectiveness.xlsx`, {
      headers: { 'X-API-KEY': chain.processor.key },
    });
    expect(stranger.status).toBe(404);
  });

  it('closes once the level is met; every consignee is told, and nothing more is answered or passed on', async () => {
    const closed = await issuer().post(`/Integration/Recalls/${recallId}/close`, {});
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({
      state: 'closed',
      closed: { time: expect.any(String), reason: null, levelMet: true },
    });
    expect((await issuer().post(`/Integration/Recalls/${recallId}/close`, {})).status).toBe(409);
    const late = await client(chain.other.key).post(`/Integration/Recalls/${recallId}/acknowledge`, {
      QuantityOnHand: 0,
      Action: 'late',
    });
    expect(late.status).toBe(409);
    expect((await client(chain.retailer.key).post(`/Integration/Recalls/${recallId}/pass-on`)).status).toBe(409);

    const [told] = await otherHooks.waitFor(1, (r) => typeOf(r) === 'recall.closed', 20_000);
    expect(JSON.parse(told.body).data).toMatchObject({ id: recallId, levelMet: true, reason: null });
    const notice = (await client(chain.retailer.key).get(`/Integration/Recalls/${recallId}`)).body;
    expect(notice).toMatchObject({
      state: 'closed',
      closed: { levelMet: true },
      acknowledgement: { quantityOnHand: 20 },
    });
    // Closed with one consignee that never answered: the level was met, not every answer given.
    const holders = (await view()).holders as Holder[];
    expect(Object.fromEntries(holders.map((h) => [h.account, h.state]))).toEqual({
      [chain.processor.name]: 'acknowledged',
      [chain.retailer.name]: 'acknowledged',
      [chain.other.name]: 'notified',
    });
    const [listed] = (await issuer().get('/Integration/Recalls/issued')).body.results;
    expect(listed).toMatchObject({ id: recallId, state: 'closed' });
    const [otherNotice] = (await client(chain.other.key).get('/Integration/Recalls')).body.results;
    expect(otherNotice).toMatchObject({ id: recallId, state: 'closed', acknowledgement: null });

    // The recall's workflow followed it until the close, each change a signal and each pass an activity in its history.
    const handle = temporal.workflow.getHandle(recallWorkflowId(recallId));
    expect(await handle.result()).toEqual<FollowRecallResult>({ reminders: 1, overdue: [chain.other.name] });
    const events = (await handle.fetchHistory()).events ?? [];
    const signals = events.filter((e) => e.workflowExecutionSignaledEventAttributes).length;
    const passes = events.filter(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'followUpRecall',
    ).length;
    // Issue (before the recall's commit, then after it), the processor's answer, its pass-on, the
    // retailer's answer and the close. Signals that arrive during a pass are read by the next pass
    // together (or, for the close, by the pass that finds the recall closed), so a pass per signal is
    // not promised: under load 5 passes followed 6 signals.
    expect(signals).toBe(6);
    expect(passes).toBeGreaterThan(1);
  });
});
