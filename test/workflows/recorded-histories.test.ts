import fs from 'node:fs';
import path from 'node:path';
import { Context } from '@temporalio/activity';
import type { WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { BatchError } from '../../domain/batch-errors';
import { SEARCH_ATTRIBUTES } from '../../domain/search-attribute-keys';
import { batchRejection } from '../../pipeline/batch-failure';
import { PROJECT_ROOT } from '../../platform/config';
import type { ImportChunkBatch, PersistEventsOutput, ProcessEventBatchInput } from '../../pipeline/contracts';
import { processEventBatch } from '../../workflows/process-event-batch';
import type { RecallFollowUpOutcome } from '../../domain/recall-contracts';
import { followRecall, recallChangedSignal } from '../../workflows/follow-recall';
import { processImport } from '../../workflows/process-import';
import type { NextWebhookDelivery } from '../../db/repositories/webhooks';
import type { MarkWebhookFailingInput } from '../../domain/webhook-contracts';
import { deliverWebhooks, wakeSignal } from '../../workflows/deliver-webhooks';
import { withStubWorker } from '../helpers/workflow-env';

/**
 * Runs of today's workflow code, with stub activities, on the real dev server (the pinned CLI's), each
 * replayed at once. `RECORD_HISTORIES=<version> npx jest test/workflows/recorded-histories.test.ts` also
 * writes them into histories/ as `<version>-<scenario>.json`: replay.test.ts then holds every later version
 * of the code to them, as it holds today's to the ones recorded before.
 */
const HISTORIES = path.join(__dirname, 'histories');
const RECORDING = process.env.RECORD_HISTORIES || undefined;

const ref = { accountId: 'account-1', accountName: 'recorded', requestId: null };
const persisted: PersistEventsOutput = { events: 3, documents: true, commissions: true, recalculate: true };
const unknownProduct: BatchError = {
  index: 0,
  eventId: null,
  code: 'UnknownProduct',
  field: 'Products[0].ProductId',
  message: 'Event 0: product SALMON is not known and the event gives no Details to create it.',
};

/** The pipeline's steps as stubs: persist answers `persist`, every other step succeeds. */
const pipeline = (persist: () => Promise<PersistEventsOutput>) => ({
  persistEvents: persist,
  attachDocuments: async () => ({
    documentsNotAttached: { 'event-1': [{ documentId: 'D-1', reason: 'DocumentNotFound' }] },
  }),
  recalculateTimeline: async () => undefined,
  commitLedger: async () => undefined,
  recordBatchStatus: async () => undefined,
});

describe('histories recorded from the real dev server replay against the workflow code', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await TestWorkflowEnvironment.createLocal({
      server: {
        executable: { type: 'existing-path', path: process.env.TEMPORAL_CLI_PATH! },
        searchAttributes: [...SEARCH_ATTRIBUTES],
      },
    });
  });
  afterAll(() => env?.teardown());

  /** Waits for the run's end, replays its history, and writes it under `name` when recording. */
  async function recorded(name: string, handle: WorkflowHandle, closed: () => Promise<unknown>): Promise<void> {
    await closed();
    const history = await handle.fetchHistory();
    await Worker.runReplayHistory({ workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE! } }, history);
    // Stack traces name a neutral install path, not the checkout they were recorded in (replay reads none of it).
    const json = historyToJSON(history).replaceAll(PROJECT_ROOT, '/app');
    if (RECORDING) fs.writeFileSync(path.join(HISTORIES, `${RECORDING}-${name}.json`), `${json}\n`);
  }

  const batch = (batchId: string, eventCount: number): ProcessEventBatchInput => ({
    batchId,
    ...ref,
    eventCount,
    localMaxEvents: 50,
  });

  const attach = pipeline(async () => persisted).attachDocuments;
  it.each([
    { name: 'small-batch-completed', events: 3, persist: persisted, tasks: [] },
    {
      name: 'large-batch-completed',
      events: 300,
      persist: persisted,
      tasks: ['persistEvents', 'attachDocuments', 'recalculateTimeline', 'commitLedger'],
    },
    {
      // A new lot: persist stored its balances final, and there is nothing to attach nor to put on the ledger.
      name: 'small-batch-final-balances',
      events: 3,
      persist: { events: 3, documents: false, commissions: false, recalculate: false },
      tasks: [],
    },
    {
      // A local step that keeps failing goes on as an activity task.
      name: 'small-batch-local-step-as-task',
      events: 3,
      persist: persisted,
      attachDocuments: async () => {
        if (Context.current().info.isLocal) throw new Error('statement timeout');
        return attach();
      },
      tasks: ['attachDocuments'],
    },
  ])('$name: $events events, activity tasks $tasks', async ({ name, events, persist, tasks, ...steps }) => {
    const activities = { ...pipeline(async () => ({ ...persist, events })), ...steps };
    await withStubWorker(env, activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(processEventBatch, {
        taskQueue,
        workflowId: `recorded-${name}`,
        args: [batch(`batch-${name}`, events)],
      });
      await recorded(name, handle, async () =>
        expect(await handle.result()).toEqual({ batchId: `batch-${name}`, events }),
      );
      const history = await handle.fetchHistory();
      const scheduled = history.events?.flatMap(
        (event) => event.activityTaskScheduledEventAttributes?.activityType?.name ?? [],
      );
      expect(scheduled).toEqual(tasks);
    });
  });

  it('small-batch-rejected', async () => {
    const rejecting = pipeline(async () => {
      throw batchRejection([unknownProduct, { ...unknownProduct, index: 1 }]);
    });
    await withStubWorker(env, rejecting, async (taskQueue) => {
      const handle = await env.client.workflow.start(processEventBatch, {
        taskQueue,
        workflowId: 'recorded-small-batch-rejected',
        args: [batch('batch-rejected', 2)],
      });
      await recorded('small-batch-rejected', handle, () =>
        expect(handle.result()).rejects.toMatchObject({ cause: { type: 'UnknownProduct' } }),
      );
    });
  });

  it('import-chunks-stored-at-upload', async () => {
    const chunks: ImportChunkBatch[] = [0, 1, 2, 3, 4].map((seq) => ({
      seq,
      batchId: `import-batch-${seq}`,
      workflowId: `recorded-import-1-${seq}`,
      eventCount: seq === 4 ? 200 : 1000,
    }));
    const activities = {
      ...pipeline(async () => persisted),
      takeImportChunks: async () => chunks,
      splitImport: async () => [],
      recordImportFailed: async () => undefined,
    };
    await withStubWorker(env, activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(processImport, {
        taskQueue,
        workflowId: 'recorded-import-1',
        args: [{ importId: 'import-1', ...ref, localMaxEvents: 50 }],
      });
      await recorded('import-chunks-stored-at-upload', handle, async () =>
        expect(await handle.result()).toEqual({ batches: 5, completed: 5, failed: 0 }),
      );
    });
  });
  it('recall-followed-to-close', async () => {
    // Started before its recall's commit (missing until signalled), a reminder a second later, overdue at
    // the next, idle until the close.
    let passes = 0;
    let closed = false;
    const pass = (o: Partial<RecallFollowUpOutcome>): RecallFollowUpOutcome => ({
      closed: false,
      reminded: [],
      overdue: [],
      nextDueSeconds: null,
      ...o,
    });
    const script = [
      pass({ missing: true }),
      pass({ nextDueSeconds: 1 }),
      pass({ reminded: ['consignee'], nextDueSeconds: 1 }),
      pass({ overdue: ['consignee'] }),
    ];
    const followUpRecall = async (): Promise<RecallFollowUpOutcome> =>
      closed ? pass({ closed: true }) : (script[passes++] ?? pass({}));
    await withStubWorker(env, { followUpRecall }, async (taskQueue) => {
      const handle = await env.client.workflow.start(followRecall, {
        taskQueue,
        workflowId: 'recorded-recall-1',
        args: [{ recallId: 'recall-1' }],
      });
      const until = async (count: number) => {
        while (passes < count) await new Promise((resolve) => setTimeout(resolve, 50));
      };
      await until(1);
      await handle.signal(recallChangedSignal);
      await until(4);
      closed = true;
      await handle.signal(recallChangedSignal);
      await recorded('recall-followed-to-close', handle, async () =>
        expect(await handle.result()).toEqual({ reminders: 1, overdue: ['consignee'] }),
      );
    });
  });

  it.each([
    { name: 'webhook-delivered', refuse: false, failing: [] },
    // The receiver refuses until the (2 s) retry schedule runs out: the endpoint is marked failing.
    {
      name: 'webhook-endpoint-failing',
      refuse: true,
      failing: [
        { endpointId: 'endpoint-webhook-endpoint-failing', deliveryId: 'msg_1', reason: 'the receiver answered 503' },
      ],
    },
  ])('$name', async ({ name, refuse, failing }) => {
    // Owed nothing at first, woken by a commit (during the wait, or the read), one delivery, then deleted.
    const reads: NextWebhookDelivery[] = [{ kind: 'wait' }, { kind: 'deliver', deliveryId: 'msg_1' }, { kind: 'gone' }];
    let read = 0;
    const marked: MarkWebhookFailingInput[] = [];
    const activities = {
      nextWebhookDelivery: async (): Promise<NextWebhookDelivery> => reads[read++],
      deliverWebhook: async () => {
        if (refuse) throw ApplicationFailure.retryable('the receiver answered 503', 'WebhookNotDelivered');
        return 'Delivered' as const;
      },
      markWebhookFailing: async (input: MarkWebhookFailingInput) => {
        marked.push(input);
      },
    };
    await withStubWorker(env, activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(deliverWebhooks, {
        taskQueue,
        workflowId: `recorded-${name}`,
        args: [{ endpointId: `endpoint-${name}`, retrySeconds: 2 }],
      });
      while (read < 1) await new Promise((resolve) => setTimeout(resolve, 50));
      await handle.signal(wakeSignal);
      await recorded(name, handle, async () => expect(await handle.result()).toBeUndefined());
    });
    expect(read).toBe(3);
    expect(marked).toEqual(failing);
  });
});
