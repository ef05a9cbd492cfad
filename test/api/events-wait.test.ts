import { Client } from 'pg';
import { batchStartOf, startBatchWorkflow } from '../../batches/batch-workflow';
import { WORKFLOW_WAIT_DELAY_MS, waitForOutcome } from '../../batches/outcome';
import { BatchFinishedListener } from '../../db/batch-finished';
import { DEFAULT_PIPELINE_LOCAL_MAX_EVENTS, loadConfig } from '../../platform/config';
import { createLogger } from '../../platform/logger';
import type { processEventBatch } from '../../workflows';
import { createAccount, type TestAccount } from '../factories/accounts';
import { storedBatch } from '../factories/batches';
import { commission, instance, ship, uid } from '../factories/events';
import { sql } from '../helpers/db';
import { request } from '../helpers/http';
import { temporalClient } from '../helpers/temporal';

/**
 * A sync call wakes when its batch's row is finished: PostgreSQL announces the batch on channel
 * batch_finished when the update to Completed or Failed commits, once, and never for Running.
 */
describe('sync calls learn the outcome from the batch row', () => {
  let listener: Client;
  const announced: string[] = [];

  beforeAll(async () => {
    listener = new Client({ connectionString: process.env.DATABASE_URL });
    await listener.connect();
    listener.on('notification', (message) => announced.push(message.payload ?? ''));
    await listener.query('LISTEN batch_finished');
  });
  afterAll(() => listener.end());

  const until = async (check: () => boolean) => {
    for (let i = 0; i < 50 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  };

  it('announces a completed batch once, and the call answers its result', async () => {
    const account = await createAccount('wait');
    const lot = uid('LOT');
    const response = await request('POST', '/Integration/Events', {
      key: account.key,
      body: { Events: [commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', lot, 5))] },
    });
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual([
      expect.objectContaining({
        status: 'Created',
        productInstances: [{ productId: 'SALMON', lotSerial: lot, quantity: 5 }],
      }),
    ]);
    await until(() => announced.includes(response.body.batchId));
    expect(announced.filter((id) => id === response.body.batchId)).toHaveLength(1);
  });

  it('announces a rejected batch, and the call answers the 400 error list from the row', async () => {
    const account = await createAccount('wait');
    const response = await request('POST', '/Integration/Events', {
      key: account.key,
      body: { Events: [ship({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', uid('LOT'), 5))] },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        index: 0,
        code: 'InsufficientInventory',
        field: 'ProductInstances[0].Quantity',
        requested: 5,
        available: 0,
      }),
    ]);
    const { rows } = await listener.query<{ id: string }>('SELECT id FROM batches WHERE account_id = $1', [account.id]);
    await until(() => announced.includes(rows[0].id));
    expect(announced.filter((id) => id === rows[0].id)).toHaveLength(1);
  });
});

/**
 * The wait on the workflow (a long poll on Temporal) is the fallback: while the listener is connected it
 * starts only when no announcement came within WORKFLOW_WAIT_DELAY_MS. Each run here is on a task queue
 * no worker polls, so nothing but the test finishes the row or closes the run.
 */
describe('a sync wait asks Temporal for the workflow only when the announcement does not come', () => {
  const temporal = temporalClient();
  let account: TestAccount;
  const nobodyPolls = `${loadConfig().taskQueue}-nobody-polls`;

  beforeAll(async () => {
    account = await createAccount('wait-fallback');
  });

  const listenerOf = async (connect: boolean) => {
    const listener = new BatchFinishedListener(process.env.DATABASE_URL!, createLogger('silent', 'test'));
    if (connect) await listener.start();
    return listener;
  };

  /** A stored batch, its run started on `taskQueue`, and a wait on it that notes when it first asked Temporal. */
  async function waitOn(listener: BatchFinishedListener, taskQueue = nobodyPolls) {
    const batch = await storedBatch(account.id, [
      commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', uid('LOT'), 5)),
    ]);
    const announced = listener.waitFor(batch.id);
    const run = await startBatchWorkflow(
      temporal,
      taskQueue,
      batchStartOf(batch, account.name, DEFAULT_PIPELINE_LOCAL_MAX_EVENTS),
    );
    const handle = temporal.workflow.getHandle<typeof processEventBatch>(batch.workflowId);
    const startedAt = Date.now();
    let askedAt: number | undefined;
    const result = handle.result.bind(handle);
    jest.spyOn(handle, 'result').mockImplementation(() => {
      askedAt ??= Date.now() - startedAt;
      return result();
    });
    const outcome = waitForOutcome({ temporal, batchFinished: listener }, batch, handle, {
      announced,
      seconds: 20,
    }).finally(() => announced.cancel());
    return { batch, run, outcome, startedAt, askedAfterMs: () => askedAt };
  }

  /** Finishes the row as the status step does; PostgreSQL announces it. */
  const complete = (batchId: string) =>
    sql().query(`UPDATE batches SET status = 'Completed', result = '[]', completed_at = now() WHERE id = $1`, [
      batchId,
    ]);

  it('a batch announced before the delay is answered without asking Temporal', async () => {
    const listener = await listenerOf(true);
    const { batch, run, outcome, startedAt, askedAfterMs } = await waitOn(listener);
    try {
      expect(listener.listening).toBe(true);
      await complete(batch.id);
      expect((await outcome).kind).toBe('completed');
      // The run never closes (nobody polls its queue): only the announcement can answer well within the wait.
      expect(Date.now() - startedAt).toBeLessThan(10_000);
      // On a loaded machine the answer may come after the delay; Temporal must still not be asked sooner.
      const asked = askedAfterMs();
      if (asked !== undefined) expect(asked).toBeGreaterThanOrEqual(WORKFLOW_WAIT_DELAY_MS - 5);
    } finally {
      await run.terminate('the test ends this run');
      await listener.stop();
    }
  });

  it('without a connected listener the wait asks Temporal at once, and answers the run that completed', async () => {
    const listener = await listenerOf(false);
    expect(listener.listening).toBe(false);
    const { outcome, askedAfterMs } = await waitOn(listener, loadConfig().taskQueue);
    expect((await outcome).kind).toBe('completed');
    expect(askedAfterMs()).toBeLessThan(WORKFLOW_WAIT_DELAY_MS);
  });

  it('a run that ends without finishing the row is answered from the row once the delay has passed', async () => {
    const listener = await listenerOf(true);
    const { run, outcome, askedAfterMs } = await waitOn(listener);
    try {
      await run.terminate('the test ends this run');
      expect((await outcome).kind).toBe('pending');
      expect(askedAfterMs()).toBeGreaterThanOrEqual(WORKFLOW_WAIT_DELAY_MS - 5);
    } finally {
      await listener.stop();
    }
  });
});
