import { MockActivityEnvironment } from '@temporalio/testing';
import { persistEvents } from '../../activities/persist-events';
import { recallReach, traceFsma204, traceLot, traceNodeEvents } from '../../usecases/trace-lot';
import { createAccount, type TestAccount } from '../factories/accounts';
import { storedBatch } from '../factories/batches';
import { commission, line, locationPayload, productPayload, ship, transform, uid } from '../factories/trace-events';
import type { EventPayload } from '../../domain/events';
import { activityDeps, models } from '../helpers/db';

/**
 * The trace use cases, called directly against PostgreSQL: the events are stored by the pipeline's persist
 * step (in a MockActivityEnvironment), then the lot is traced.
 */
describe('trace a lot (use case)', () => {
  let account: TestAccount;
  const product = productPayload(uid('COD'));
  const fillet = productPayload(uid('FILLET'));
  const lot = uid('L');
  const filletLot = uid('F');
  const site = locationPayload(uid('SITE'), { name: 'Landing site' });
  const buyer = locationPayload(uid('BUYER'), { connectionType: 'BUYER', name: 'Buyer dock' });
  const request = () => ({
    accountId: account.id,
    product: product.Id,
    lotSerial: lot,
    direction: 'both' as const,
    asOf: null,
    maxDepth: 10,
  });

  beforeAll(async () => {
    account = await createAccount('usecase-trace');
    const events = [
      commission(site, '2024-07-01T06:00:00', [line(product, lot, 100)]),
      transform(site, '2024-07-02T06:00:00', [line(product, lot, 50)], [line(fillet, filletLot, 40)]),
      ship(site, buyer, '2024-07-03T06:00:00', [line(fillet, filletLot, 30)]),
    ] as unknown as EventPayload[];
    const batch = await storedBatch(account.id, events);
    await new MockActivityEnvironment().run(persistEvents(activityDeps()), {
      batchId: batch.id,
      accountId: account.id,
      accountName: account.name,
    });
  });

  it('traces the lot from its own node through what was made of it to where that was shipped, cut at its depth', async () => {
    const traced = await traceLot(models(), request());
    if (!traced) throw new Error('no product');
    const at = (id: string) => traced.trace.nodes.find((n) => n.id === id)!;
    expect(traced.rootIds.map((id) => at(id).lot_serial)).toEqual([lot]);
    expect(traced.trace.edges.map((e) => [at(e.from_id).lot_serial, e.type, at(e.to_id).location_name])).toEqual([
      [lot, 'Transform', 'Landing site'],
      [filletLot, 'Ship', 'Buyer dock'],
    ]);
    const near = await traceLot(models(), { ...request(), maxDepth: 1 });
    expect(near?.trace.nodes.map((n) => n.lot_serial).sort()).toEqual([filletLot, lot].sort());
    expect(near?.trace.edges.map((e) => e.type)).toEqual(['Transform']);
  });

  it('reports what a recall must reach, the events of a node, and the FSMA 204 rows', async () => {
    const reach = await recallReach(models(), request(), 1000);
    expect(reach?.lots.map((n) => n.lot_serial).sort()).toEqual([filletLot, lot].sort());
    expect(
      reach?.shipments.map(({ edge, from, to }) => [from.lot_serial, to.location_name, Number(edge.quantity)]),
    ).toEqual([[filletLot, 'Buyer dock', 30]]);
    const traced = (await traceLot(models(), request()))!;
    const found = await traceNodeEvents(models(), request(), traced.rootIds[0]);
    expect(found.kind === 'found' && found.lines.map((l) => l.type).sort()).toEqual(['Commission', 'Transform']);
    const rows = await traceFsma204(models(), request());
    expect(rows?.map((r) => r['Critical Tracking Event']).sort()).toEqual([
      'Initial Packing',
      'Shipping',
      'Transformation',
    ]);
  });

  it('answers a product the account does not have, or a node outside the trace, as such', async () => {
    const other = await createAccount('usecase-trace-other');
    // The lot's product is another account's: as absent as one that never existed.
    expect(await traceLot(models(), { ...request(), accountId: other.id })).toBeNull();
    expect(await recallReach(models(), { ...request(), accountId: other.id }, 1000)).toBeNull();
    expect(await traceFsma204(models(), { ...request(), product: 'NO-SUCH-PRODUCT' })).toBeNull();
    expect(await traceNodeEvents(models(), { ...request(), product: 'NO-SUCH' }, 'x')).toEqual({
      kind: 'unknownProduct',
    });
    expect(await traceNodeEvents(models(), request(), '00000000-0000-0000-0000-000000000000')).toEqual({
      kind: 'unknownNode',
    });
  });
});
