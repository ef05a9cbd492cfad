import fs from 'node:fs';
import path from 'node:path';
import { waitFor } from '../../platform/net';
import { readLiveState, type RuntimeState } from '../../supervisor/state';
import { createAccount } from '../factories/accounts';
import { commission, instance, ship, uid } from '../factories/events';
import { lockBatchTimelines, recalculateTimelines } from '../../db/repositories/inventory-timelines';
import { queryOf } from '../../db/sql';
import { models, sql } from '../helpers/db';
import { localActivityMarker } from '../helpers/local-activity-marker';
import { closedBatchHistory, temporalClient } from '../helpers/temporal';
import { request } from '../helpers/http';

const state = (): RuntimeState => {
  const live = readLiveState(process.env.STACK_DIR!);
  if (!live) throw new Error('no runtime.json in STACK_DIR');
  return live;
};

/** The statements counted so far for each step: `traceability_db_statements_total{step="…"} n`. */
async function statements(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(url)).text();
  return new Map(
    [...text.matchAll(/^traceability_db_statements_total\{step="([^"]+)"\} (\S+)$/gm)].map((m) => [m[1], Number(m[2])]),
  );
}

describe('what the pipeline costs, made visible', () => {
  const temporal = temporalClient();

  /** The steps a batch's workflow ran as local activities, in the order of their markers. */
  const localStepsOf = async (batchId: string) =>
    (await closedBatchHistory(temporal, batchId)).flatMap((e) => localActivityMarker(e)?.activity_type ?? []);

  it('the dev server keeps its history in a write-ahead log synced on every commit', () => {
    // Byte 18 of an SQLite file is its write version: 1 for the rollback journal, 2 for WAL.
    const header = Buffer.alloc(100);
    const fd = fs.openSync(path.join(process.env.STACK_DIR!, 'temporal.db'), 'r');
    try {
      fs.readSync(fd, header, 0, 100, 0);
    } finally {
      fs.closeSync(fd);
    }
    expect(header.subarray(0, 15).toString()).toBe('SQLite format 3');
    expect(header[18]).toBe(2);
    const args = fs.readFileSync(`/proc/${state().temporalPid}/cmdline`, 'utf8').split('\0');
    expect(args).toEqual(expect.arrayContaining(['--sqlite-pragma', 'synchronous=full']));
  });

  it("the dev server dispatches activities eagerly, as the production server's dynamic config file has it (test/runtime/compose.test.ts)", () => {
    const args = fs.readFileSync(`/proc/${state().temporalPid}/cmdline`, 'utf8').split('\0');
    expect(args).toEqual(
      expect.arrayContaining(['--dynamic-config-value', 'system.enableActivityEagerExecution=true']),
    );
  });

  it.each([
    ["the API's own worker, for a small sync batch", 'sync'],
    ['the worker, for an async batch', 'async'],
  ] as const)(
    'counts the statements each step sends PostgreSQL by activity, in %s, and the request in the API',
    async (_, mode) => {
      const { apiMetricsUrl, workerAppMetricsUrl } = state();
      const stepsUrl = mode === 'sync' ? apiMetricsUrl : workerAppMetricsUrl!;
      const [apiBefore, stepsBefore] = await Promise.all([statements(apiMetricsUrl), statements(stepsUrl)]);
      const account = await createAccount('cost');
      const stocked = uid('LOT');
      const stock = await request('POST', '/Integration/Events', {
        key: account.key,
        body: {
          Events: [commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', stocked, 5))],
        },
      });
      expect(stock.status).toBe(200);
      // A commission for the ledger, and a ship of stored stock for the recalculation (it lowers what the
      // stored record can still give).
      const batch = await request<{ batchId: string }>(
        'POST',
        `/Integration/Events${mode === 'async' ? '/async' : ''}`,
        {
          key: account.key,
          body: {
            Events: [
              commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', uid('LOT'), 5)),
              ship({ location: 'DOCK', time: '2024-03-02T00:00:00Z' }, instance('SALMON', stocked, 2)),
            ],
          },
        },
      );
      expect(batch.status).toBe(mode === 'sync' ? 200 : 202);
      await waitFor('the batch to complete', 30_000, async () => {
        const { rows } = await sql().query<{ status: string }>('SELECT status FROM batches WHERE id = $1', [
          batch.body.batchId,
        ]);
        return rows[0].status === 'Completed';
      });
      const [apiAfter, stepsAfter] = await Promise.all([statements(apiMetricsUrl), statements(stepsUrl)]);
      const moved = (after: Map<string, number>, before: Map<string, number>, step: string) =>
        (after.get(step) ?? 0) - (before.get(step) ?? 0);
      // Other test files' batches count here too when they run at once: these are lower bounds. The status
      // step completes a batch in one statement.
      for (const [step, least] of [
        ['persistEvents', 2],
        ['recalculateTimeline', 2],
        ['commitLedger', 2],
        ['recordBatchStatus', 1],
      ] as const) {
        expect({ step, moved: moved(stepsAfter, stepsBefore, step) >= least }).toEqual({ step, moved: true });
      }
      expect(moved(apiAfter, apiBefore, 'request')).toBeGreaterThanOrEqual(2);
      // The API's statements outside its worker's steps are all the request's: none on another pool.
      expect(moved(apiAfter, apiBefore, 'worker')).toBe(0);
    },
  );

  it('stores each inventory record with its balance and available: recalculateTimeline rewrites only older records the batch changed', async () => {
    const account = await createAccount('cost-balances');
    const [stocked, fresh] = [uid('LOT'), uid('LOT')];
    const send = async (events: unknown[]) => {
      const answer = await request('POST', '/Integration/Events', { key: account.key, body: { Events: events } });
      expect(answer.status).toBe(200);
      return (answer.body as { batchId: string }).batchId;
    };
    await send([commission({ location: 'DOCK', time: '2024-03-02T00:00:00Z' }, instance('SALMON', stocked, 100))]);
    // A new lot commissioned and shipped, an earlier commission of the stocked lot (historical) and a later ship of it.
    const batchId = await send([
      commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', fresh, 10)),
      ship({ location: 'DOCK', time: '2024-03-02T00:00:00Z' }, instance('SALMON', fresh, 3)),
      commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', stocked, 5)),
      ship({ location: 'DOCK', time: '2024-03-03T00:00:00Z' }, instance('SALMON', stocked, 30)),
    ]);
    const { rows } = await sql().query<{
      lot: string;
      balance: string;
      available: string;
      rewritten: boolean;
      mine: boolean;
    }>(
      `SELECT r.lot_serial AS lot, r.balance::text AS balance, r.available::text AS available,
              r.xmin::text <> e.xmin::text AS rewritten, e.batch_id = $2 AS mine
         FROM inventory_records r JOIN events e ON e.id = r.event_id
        WHERE r.account_id = $1 ORDER BY r.lot_serial = $3, r.event_time, r.event_seq`,
      [account.id, batchId, stocked],
    );
    const values = (lot: string) =>
      rows
        .filter((r) => r.lot === lot)
        .map((r) => ({ balance: r.balance, available: r.available, rewritten: r.rewritten, mine: r.mine }));
    // xmin tells which transaction wrote a row last: the batch's own records are as its persist step stored them.
    expect(values(fresh)).toEqual([
      { balance: '10', available: '7', rewritten: false, mine: true },
      { balance: '7', available: '7', rewritten: false, mine: true },
    ]);
    expect(values(stocked)).toEqual([
      { balance: '5', available: '5', rewritten: false, mine: true },
      { balance: '105', available: '75', rewritten: true, mine: false },
      { balance: '75', available: '75', rewritten: false, mine: true },
    ]);
  });

  it('runs no recalculation for a batch whose records it stores final, and a recalculation run anyway writes nothing', async () => {
    const account = await createAccount('cost-final');
    const [lot, other] = [uid('LOT'), uid('LOT')];
    const answer = await request<{ batchId: string }>('POST', '/Integration/Events', {
      key: account.key,
      body: {
        Events: [
          commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', lot, 10)),
          ship({ location: 'DOCK', time: '2024-03-02T00:00:00Z' }, instance('SALMON', lot, 3)),
          commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', other, 4)),
        ],
      },
    });
    expect(answer.status).toBe(200);
    const { batchId } = answer.body;
    expect(await localStepsOf(batchId)).toEqual(['persistEvents', 'commitLedger', 'recordBatchStatus']);

    const sequelize = models();
    const rewritten = await sequelize.transaction(async (transaction) => {
      const timelines = await lockBatchTimelines(queryOf(sequelize, transaction), account.id, batchId);
      expect(timelines).toHaveLength(2);
      return recalculateTimelines(sequelize, transaction, account.id, timelines);
    });
    expect(rewritten).toBe(0);
  });

  it('recalculates a lot whose older record holds values a recalculation would change, as while its batch awaits one', async () => {
    const account = await createAccount('cost-stale');
    const lot = uid('LOT');
    const send = async (time: string, quantity: number) => {
      const answer = await request<{ batchId: string }>('POST', '/Integration/Events', {
        key: account.key,
        body: { Events: [commission({ location: 'DOCK', time }, instance('SALMON', lot, quantity))] },
      });
      expect(answer.status).toBe(200);
      return answer.body.batchId;
    };
    await send('2024-03-01T00:00:00Z', 10);
    await sql().query('UPDATE inventory_records SET available = 3 WHERE account_id = $1 AND lot_serial = $2', [
      account.id,
      lot,
    ]);
    // An addition after the last record: final, were the older record's values right.
    const later = await send('2024-03-02T00:00:00Z', 5);
    expect(await localStepsOf(later)).toContain('recalculateTimeline');
    const { rows } = await sql().query<{ balance: string; available: string }>(
      `SELECT balance::text AS balance, available::text AS available FROM inventory_records
        WHERE account_id = $1 AND lot_serial = $2 ORDER BY event_time`,
      [account.id, lot],
    );
    expect(rows).toEqual([
      { balance: '10', available: '10' },
      { balance: '15', available: '15' },
    ]);
  });
});
