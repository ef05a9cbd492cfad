import fs from 'node:fs';
import path from 'node:path';
import { readLiveState, type RuntimeState } from '../../supervisor/state';
import { createAccount } from '../factories/accounts';
import { commission, instance, uid } from '../factories/events';
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

  it('counts the statements each step sends PostgreSQL, in the worker by activity and in the API', async () => {
    const { apiMetricsUrl, workerAppMetricsUrl } = state();
    const [apiBefore, workerBefore] = await Promise.all([statements(apiMetricsUrl), statements(workerAppMetricsUrl!)]);
    const account = await createAccount('cost');
    const batch = await request('POST', '/Integration/Events', {
      key: account.key,
      body: {
        Events: [commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', uid('LOT'), 5))],
      },
    });
    expect(batch.status).toBe(200);
    const [apiAfter, workerAfter] = await Promise.all([statements(apiMetricsUrl), statements(workerAppMetricsUrl!)]);
    const moved = (after: Map<string, number>, before: Map<string, number>, step: string) =>
      (after.get(step) ?? 0) - (before.get(step) ?? 0);
    for (const step of ['persistEvents', 'recalculateTimeline', 'commitLedger', 'recordBatchStatus']) {
      expect({ step, moved: moved(workerAfter, workerBefore, step) >= 2 }).toEqual({ step, moved: true });
    }
    expect(moved(apiAfter, apiBefore, 'request')).toBeGreaterThanOrEqual(2);
  });
});
