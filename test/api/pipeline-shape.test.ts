import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { temporal as temporalProto } from '@temporalio/proto';
import { SYNC_QUEUE_MAX_EVENTS, batchStartOf, startBatchWorkflow } from '../../batches/batch-workflow';
import { DEFAULT_PIPELINE_LOCAL_MAX_EVENTS, loadConfig } from '../../platform/config';
import { syncTaskQueueOf } from '../../domain/task-queues';
import { readLiveState } from '../../supervisor/state';
import type { ProcessEventBatchInput } from '../../pipeline/contracts';
import { createAccount, type TestAccount } from '../factories/accounts';
import { storedBatch } from '../factories/batches';
import { commission, instance, uid } from '../factories/events';
import { sql } from '../helpers/db';
import { client } from '../helpers/http';
import { localActivityMarker } from '../helpers/local-activity-marker';
import { reconcileUntil } from '../helpers/reconciler';
import { closedBatchHistory, temporalClient } from '../helpers/temporal';

/**
 * How a batch's steps run is decided where its workflow is started (PIPELINE_LOCAL_MAX_EVENTS, 1,000 by
 * default, so every batch the endpoints take): a batch that size or smaller as local activities in one
 * workflow task, a larger one's as activity tasks.
 */
describe('the shape of the pipeline, as each starter sets it', () => {
  const temporal = temporalClient();
  let account: TestAccount;

  beforeAll(async () => {
    account = await createAccount('shape');
  });

  /** The batch's workflow input, its steps (activity tasks and local markers) and its workflow tasks. */
  async function shapeOf(batchId: string) {
    const events = await closedBatchHistory(temporal, batchId);
    const input = events[0].workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
    return {
      input: defaultPayloadConverter.fromPayload<ProcessEventBatchInput>(input as Payload),
      activityTasks: events.flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []),
      localSteps: events.flatMap((e) => localActivityMarker(e)?.activity_type ?? []),
      workflowTasks: events.filter((e) => e.workflowTaskStartedEventAttributes).length,
      taskQueue: events[0].workflowExecutionStartedEventAttributes?.taskQueue?.name,
      // A worker's identity is `<pid>@<host>` (the SDK's default): which process ran each workflow task.
      workflowTaskPids: events.flatMap((e) => e.workflowTaskStartedEventAttributes?.identity?.split('@')[0] ?? []),
    };
  }

  /** A one-event batch stored as the API stores one, its workflow not started. */
  const storedOneEventBatch = (mode: 'sync' | 'async') =>
    storedBatch(
      account.id,
      [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', uid('LOT'), 2))],
      mode,
    );

  const pids = () => {
    const state = readLiveState(process.env.STACK_DIR!);
    return {
      api: String(state?.apiPid),
      worker: String(state?.workerPid),
      interactiveWorker: String(state?.interactiveWorkerPid),
    };
  };
  const { taskQueue } = loadConfig();

  const batchIdOf = async (externalId: string) => {
    const { rows } = await sql().query<{ batch_id: string }>(
      'SELECT batch_id FROM events WHERE account_id = $1 AND external_event_id = $2',
      [account.id, externalId],
    );
    return rows[0].batch_id;
  };

  it('runs a one-event sync call in one workflow task, each step a local activity named in its marker', async () => {
    const event = commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', uid('LOT'), 2));
    const answer = await client(account.key).post('/Integration/Events', { Events: [event] });
    expect(answer.status).toBe(200);
    const shape = await shapeOf(await batchIdOf(event.Id));
    expect(shape.input).toMatchObject({ eventCount: 1, localMaxEvents: DEFAULT_PIPELINE_LOCAL_MAX_EVENTS });
    expect(shape.activityTasks).toEqual([]);
    // A new lot's records are stored final: no recalculation.
    expect(shape.localSteps).toEqual(['persistEvents', 'commitLedger', 'recordBatchStatus']);
    expect(shape.workflowTasks).toBe(1);
  });

  it('runs a one-event sync call in the API itself: started eagerly on the sync task queue, no queue ahead of it', async () => {
    const event = commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', uid('LOT'), 2));
    expect((await client(account.key).post('/Integration/Events', { Events: [event] })).status).toBe(200);
    const shape = await shapeOf(await batchIdOf(event.Id));
    expect(shape.taskQueue).toBe(syncTaskQueueOf(taskQueue));
    expect(shape.workflowTaskPids).toEqual([pids().api]);
  });

  it('runs a small sync batch that was not started eagerly from the sync task queue, which the interactive worker polls too', async () => {
    const batch = await storedOneEventBatch('sync');
    await startBatchWorkflow(temporal, taskQueue, batchStartOf(batch, account.name, DEFAULT_PIPELINE_LOCAL_MAX_EVENTS));
    const shape = await shapeOf(batch.id);
    expect(shape.taskQueue).toBe(syncTaskQueueOf(taskQueue));
    // Matched to a poller of that queue: the API's own worker, or the interactive worker.
    const { api, interactiveWorker } = pids();
    expect([[api], [interactiveWorker]]).toContainEqual(shape.workflowTaskPids);
    expect(shape.localSteps.at(-1)).toBe('recordBatchStatus');
    const { pollers } = await temporal.workflowService.describeTaskQueue({
      namespace: 'default',
      taskQueue: { name: syncTaskQueueOf(taskQueue) },
      taskQueueType: temporalProto.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
    });
    expect(pollers?.map((poller) => poller.identity?.split('@')[0])).toEqual(
      expect.arrayContaining([api, interactiveWorker]),
    );
  });

  /** A sync batch of `size` commissions, answered; its shape. */
  const syncBatchShape = async (size: number) => {
    const lot = uid('LOT');
    const events = Array.from({ length: size }, (_, i) =>
      commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', `${lot}-${i}`, 2)),
    );
    const answer = await client(account.key).post('/Integration/Events', { Events: events });
    expect(answer.status).toBe(200);
    return shapeOf(await batchIdOf(events[0].Id));
  };

  it("runs a sync batch as large as the API's own worker takes there", async () => {
    const shape = await syncBatchShape(SYNC_QUEUE_MAX_EVENTS);
    expect(shape.taskQueue).toBe(syncTaskQueueOf(taskQueue));
    expect(shape.workflowTaskPids).toEqual([pids().api]);
  });

  it("runs a sync batch too large for the API's own worker in npm run worker, its steps local there too", async () => {
    const shape = await syncBatchShape(SYNC_QUEUE_MAX_EVENTS + 1);
    expect(shape.input).toMatchObject({ eventCount: SYNC_QUEUE_MAX_EVENTS + 1 });
    expect(shape.taskQueue).toBe(taskQueue);
    expect(shape.workflowTaskPids).toEqual([pids().worker]);
    expect(shape.activityTasks).toEqual([]);
    expect(shape.localSteps).toEqual(['persistEvents', 'commitLedger', 'recordBatchStatus']);
  });

  it('runs a batch larger than the setting it was started with as activity tasks', async () => {
    const batch = await storedOneEventBatch('async');
    await startBatchWorkflow(temporal, taskQueue, batchStartOf(batch, account.name, 0));
    const shape = await shapeOf(batch.id);
    expect(shape.input).toMatchObject({ eventCount: 1, localMaxEvents: 0 });
    expect(shape.activityTasks).toEqual(['persistEvents', 'commitLedger']);
    expect(shape.localSteps).toEqual(['recordBatchStatus']);
  });

  it('starts a stranded batch from the reconciler as the API would have: its steps local', async () => {
    const batch = await storedOneEventBatch('async');
    await sql().query(`UPDATE batches SET submitted_at = now() - interval '10 minutes' WHERE id = $1`, [batch.id]);
    await reconcileUntil(temporal, 'the reconciler to complete the stranded batch', 60_000, async () => {
      const { rows } = await sql().query<{ status: string }>('SELECT status FROM batches WHERE id = $1', [batch.id]);
      return rows[0].status === 'Completed';
    });
    const shape = await shapeOf(batch.id);
    expect(shape.input).toMatchObject({ eventCount: 1, localMaxEvents: DEFAULT_PIPELINE_LOCAL_MAX_EVENTS });
    expect(shape.activityTasks).toEqual([]);
  }, 90_000);
});
