import { randomUUID } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import { defaultPayloadConverter, type ApplicationFailure, type Payload } from '@temporalio/common';
import { QueryTypes } from 'sequelize';
import { Batch } from '../../db/models';
import { TASK_QUEUE } from '../../platform/config';
import type { processEventBatch } from '../../workflows';
import type { EventPayload } from '../../domain/events';
import type { ProcessEventBatchInput } from '../../pipeline/contracts';
import { createAccount, type TestAccount } from '../factories/accounts';
import { commission, instance, ship, uid } from '../factories/events';
import { models } from '../helpers/db';
import { localActivityMarker } from '../helpers/local-activity-marker';
import { temporalClient } from '../helpers/temporal';

describe('processEventBatch on the real dev server and the real worker', () => {
  const client = temporalClient();
  let account: TestAccount;

  beforeAll(async () => {
    account = await createAccount('workflow');
  });

  async function newBatch(events: EventPayload[]): Promise<ProcessEventBatchInput> {
    models();
    const batchId = randomUUID();
    await Batch.create({
      id: batchId,
      accountId: account.id,
      workflowId: `test-${batchId}`,
      idempotencyKey: null,
      mode: 'sync',
      status: 'Accepted',
      eventCount: events.length,
      request: { Events: events },
      result: null,
      errors: null,
      startedAt: null,
      completedAt: null,
      retryOf: null,
      requestId: null,
    });
    return { batchId, accountId: account.id, accountName: account.name, requestId: null };
  }

  const scheduled = async (workflowId: string) => {
    const history = await client.workflow.getHandle(workflowId).fetchHistory();
    return history.events?.flatMap((e) =>
      e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityType?.name] : [],
    );
  };

  it('takes a reference to the stored batch, runs the pipeline steps and records the batch as Completed', async () => {
    const event = commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', uid('LOT'), 5));
    const input = await newBatch([{ ...event, DocumentIds: ['NO-SUCH-DOC'] }]);
    const result = await client.workflow.execute<typeof processEventBatch>('processEventBatch', {
      taskQueue: TASK_QUEUE,
      workflowId: `test-${input.batchId}`,
      args: [input],
    });
    expect(result).toEqual({ batchId: input.batchId, events: 1 });
    // A new lot's records are stored final: there is nothing to recalculate.
    expect(await scheduled(`test-${input.batchId}`)).toEqual(['persistEvents', 'attachDocuments', 'commitLedger']);
    // The status update is a local activity: a marker in the history, no scheduled task.
    const history = await client.workflow.getHandle(`test-${input.batchId}`).fetchHistory();
    expect(
      history.events?.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity'),
    ).toHaveLength(1);
    // BatchStatus follows the batch row: Running once persist stored the events, then Completed.
    const upserts = history.events?.flatMap((e) => {
      const status = e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.BatchStatus;
      return status ? [defaultPayloadConverter.fromPayload(status as Payload)] : [];
    });
    expect(upserts).toEqual(['Running', 'Completed']);
    const batch = await Batch.findByPk(input.batchId);
    expect(batch?.status).toBe('Completed');
    expect(batch?.result).toEqual([
      expect.objectContaining({
        type: 'Commission',
        status: 'Created',
        externalEventId: event.Id,
        documentsNotAttached: [{ documentId: 'NO-SUCH-DOC', reason: 'DocumentNotFound' }],
      }),
    ]);
  });

  /** The steps a run ran as local activities, in the order of their markers, with each one's attempt. */
  const localSteps = async (workflowId: string) => {
    const history = await client.workflow.getHandle(workflowId).fetchHistory();
    return history.events?.flatMap((e) => {
      const marker = localActivityMarker(e);
      return marker ? [{ step: marker.activity_type, attempt: marker.attempt }] : [];
    });
  };
  const workflowTasks = async (workflowId: string) => {
    const history = await client.workflow.getHandle(workflowId).fetchHistory();
    return history.events?.filter((e) => e.workflowTaskStartedEventAttributes).length;
  };

  it('runs the steps of a batch within its localMaxEvents as local activities in one workflow task, each named in its marker', async () => {
    const event = commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', uid('LOT'), 5));
    const input = await newBatch([{ ...event, DocumentIds: ['NO-SUCH-DOC'] }]);
    const workflowId = `test-${input.batchId}`;
    const result = await client.workflow.execute<typeof processEventBatch>('processEventBatch', {
      taskQueue: TASK_QUEUE,
      workflowId,
      args: [{ ...input, eventCount: 1, localMaxEvents: 50 }],
    });
    expect(result).toEqual({ batchId: input.batchId, events: 1 });
    expect(await scheduled(workflowId)).toEqual([]);
    expect(await workflowTasks(workflowId)).toBe(1);
    const steps = await localSteps(workflowId);
    // The two after persist run side by side: their markers come in the order they finished.
    expect(steps?.map((s) => s.step)).toEqual([
      'persistEvents',
      expect.any(String),
      expect.any(String),
      'recordBatchStatus',
    ]);
    expect(
      steps
        ?.slice(1, 3)
        .map((s) => s.step)
        .sort(),
    ).toEqual(['attachDocuments', 'commitLedger']);
    const batch = await Batch.findByPk(input.batchId);
    expect(batch?.status).toBe('Completed');
    expect(batch?.result).toEqual([
      expect.objectContaining({
        externalEventId: event.Id,
        documentsNotAttached: [{ documentId: 'NO-SUCH-DOC', reason: 'DocumentNotFound' }],
      }),
    ]);
  });

  it('runs a batch larger than its localMaxEvents, or one started without it, with activity tasks', async () => {
    const lot = uid('LOT');
    const events = [1, 2].map((day) =>
      commission({ location: 'DOCK', time: `2024-03-0${day}T00:00:00Z` }, instance('SALMON', lot, 5)),
    );
    const larger = await newBatch(events);
    await client.workflow.execute<typeof processEventBatch>('processEventBatch', {
      taskQueue: TASK_QUEUE,
      workflowId: `test-${larger.batchId}`,
      args: [{ ...larger, eventCount: 2, localMaxEvents: 1 }],
    });
    expect(await scheduled(`test-${larger.batchId}`)).toEqual(['persistEvents', 'commitLedger']);
    const forced = await newBatch([
      commission({ location: 'DOCK', time: '2024-03-03T00:00:00Z' }, instance('SALMON', uid('LOT'), 5)),
    ]);
    await client.workflow.execute<typeof processEventBatch>('processEventBatch', {
      taskQueue: TASK_QUEUE,
      workflowId: `test-${forced.batchId}`,
      args: [{ ...forced, eventCount: 1, localMaxEvents: 0 }],
    });
    expect(await scheduled(`test-${forced.batchId}`)).toEqual(['persistEvents', 'commitLedger']);
  });

  it('fails a small batch refused by its local persist with the same typed failure, persist not retried', async () => {
    const input = await newBatch([
      ship({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', uid('LOT'), 5)),
    ]);
    const workflowId = `test-${input.batchId}`;
    const failure = await client.workflow
      .execute<typeof processEventBatch>('processEventBatch', {
        taskQueue: TASK_QUEUE,
        workflowId,
        args: [{ ...input, eventCount: 1, localMaxEvents: 50 }],
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect((failure as WorkflowFailedError).cause).toMatchObject({ type: 'InsufficientInventory' });
    expect((await Batch.findByPk(input.batchId))?.errors).toEqual([
      expect.objectContaining({ code: 'InsufficientInventory' }),
    ]);
    expect(await localSteps(workflowId)).toEqual([
      { step: 'persistEvents', attempt: 1 },
      { step: 'recordBatchStatus', attempt: 1 },
    ]);
  });

  it('schedules no attach without DocumentIds, no recalculation of balances stored final, and no ledger without a commission', async () => {
    const run = async (events: EventPayload[]) => {
      const input = await newBatch(events);
      await client.workflow.execute<typeof processEventBatch>('processEventBatch', {
        taskQueue: TASK_QUEUE,
        workflowId: `test-${input.batchId}`,
        args: [input],
      });
      return scheduled(`test-${input.batchId}`);
    };
    const lot = uid('LOT');
    expect(
      await run([commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', lot, 5))]),
    ).toEqual(['persistEvents', 'commitLedger']);
    // The ship lowers what the stored commission's record can still give: its available is rewritten.
    expect(await run([ship({ location: 'DOCK', time: '2024-03-02T00:00:00Z' }, instance('SALMON', lot, 2))])).toEqual([
      'persistEvents',
      'recalculateTimeline',
    ]);
  });

  it('fails with a typed, non-retried ApplicationFailure when the batch is rejected', async () => {
    const input = await newBatch([
      ship({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', uid('LOT'), 5)),
    ]);
    const failure = await client.workflow
      .execute<typeof processEventBatch>('processEventBatch', {
        taskQueue: TASK_QUEUE,
        workflowId: `test-${input.batchId}`,
        args: [input],
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect((failure as WorkflowFailedError).cause).toMatchObject({ type: 'InsufficientInventory' });
    const batch = await Batch.findByPk(input.batchId);
    expect(batch?.status).toBe('Failed');
    expect(batch?.errors).toEqual([expect.objectContaining({ code: 'InsufficientInventory' })]);
    const history = await client.workflow.getHandle(`test-${input.batchId}`).fetchHistory();
    const attempts = history.events
      ?.filter((e) => e.activityTaskStartedEventAttributes)
      .map((e) => e.activityTaskStartedEventAttributes?.attempt);
    expect(attempts?.every((a) => a === 1)).toBe(true);
  });

  it('keeps a rejection small in the history: the error count and the first error, the whole list on the batch row', async () => {
    const lot = uid('LOT');
    const events = [1, 2, 3].map((day) =>
      ship({ location: 'DOCK', time: `2024-03-0${day}T00:00:00Z` }, instance('SALMON', lot, 5)),
    );
    const input = await newBatch(events);
    const failure = await client.workflow
      .execute<typeof processEventBatch>('processEventBatch', {
        taskQueue: TASK_QUEUE,
        workflowId: `test-${input.batchId}`,
        args: [input],
      })
      .catch((error: unknown) => error);
    const small = {
      errorCount: 3,
      firstError: expect.objectContaining({ index: 0, eventId: events[0].Id, code: 'InsufficientInventory' }),
    };
    expect(((failure as WorkflowFailedError).cause as ApplicationFailure).details).toEqual([small]);
    const history = await client.workflow.getHandle(`test-${input.batchId}`).fetchHistory();
    const activityFailure = history.events?.find((e) => e.activityTaskFailedEventAttributes)
      ?.activityTaskFailedEventAttributes?.failure;
    const details = activityFailure?.applicationFailureInfo?.details?.payloads?.map((payload) =>
      defaultPayloadConverter.fromPayload(payload as Payload),
    );
    expect(details).toEqual([small]);
    // No payload of the history names the later errors' events: they are on the batch row alone.
    const payloads = JSON.stringify(history.events, (_key, value: unknown) =>
      value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : value,
    );
    expect(payloads).not.toContain(events[2].Id);
    expect((await Batch.findByPk(input.batchId))?.errors).toHaveLength(3);
  });

  it('persist run again on a batch whose events an earlier attempt committed stores nothing twice and answers from the stored rows', async () => {
    const input = await newBatch([
      commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', uid('LOT'), 5)),
    ]);
    const run = (suffix: string) =>
      client.workflow.execute<typeof processEventBatch>('processEventBatch', {
        taskQueue: TASK_QUEUE,
        workflowId: `test-${input.batchId}-${suffix}`,
        args: [input],
      });
    expect(await run('first')).toEqual({ batchId: input.batchId, events: 1 });
    // As a second attempt finds it: Running, with the first attempt's events committed.
    await Batch.update({ status: 'Running' }, { where: { id: input.batchId } });
    expect(await run('again')).toEqual({ batchId: input.batchId, events: 1 });
    const [{ count }] = await models().query<{ count: string }>('SELECT count(*) FROM events WHERE batch_id = $1', {
      bind: [input.batchId],
      type: QueryTypes.SELECT,
    });
    expect(Number(count)).toBe(1);
    expect((await Batch.findByPk(input.batchId))?.status).toBe('Completed');
  });
});
