import { Context } from '@temporalio/activity';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Sequelize } from 'sequelize';
import { findStrandedBatches } from '../db/queries/stranded-batches';
import { finishBatch } from '../db/repositories/batch-notifications';
import { recordBatchFailed } from '../db/repositories/batch-pipeline';
import { findUnsplitImports, recordImportFailed } from '../db/repositories/imports';
import { internalError } from '../domain/batch-errors';
import { activityLogger } from '../platform/activity-logger';
import type { Logger } from '../platform/logger';
import { batchesFailed } from '../platform/metrics';
import { followLostRecalls } from '../usecases/recalls';
import { wakeWebhookEndpoints, type WebhookSettings } from '../platform/webhooks';
import type { ReconcileBatchesResult, ReconcilerActivities, StrandedBatchesInput } from '../pipeline/contracts';
import { batchStartOf, resumeBatchWorkflow, startBatchWorkflow } from './batch-workflow';
import { startImportWorkflow } from './import-workflow';

/** What the reconciler's activity needs; the worker's activity deps have it. */
export interface ReconcileDeps {
  sequelize: Sequelize;
  logger: Logger;
  webhooks?: Pick<WebhookSettings, 'retrySeconds'>;
  /** PIPELINE_LOCAL_MAX_EVENTS: batches started here run their steps as the API would have them run. */
  localMaxEvents: number;
}

/**
 * Per run at most this many, Accepted before Running (batches whose steps keep failing stay Running and
 * must not crowd out the ones never started), oldest first: a backlog is worked off over the next runs.
 */
const LIMIT = 500;

/**
 * The reconciler's step (an activity of the reconcile-batches workflow, registered by the worker beside
 * the pipeline's; it starts workflows, so it is the batch use case's), for batches past the threshold:
 * - every batch still `Accepted` has its workflow started, as the API would have (the API stores the
 *   batch, then starts it, and can die or be refused in between). A batch whose workflow already runs
 *   is left to it. One whose workflow ended without moving it on (terminated by an operator before it
 *   stored anything) is recorded as Failed: nothing of it is stored.
 * - every batch `Running` (its events stored) whose workflow was closed without finishing it (terminated
 *   by an operator, timed out) has its workflow run again, which completes it: left as it was, its
 *   timeline would not be recalculated nor its commissions put on the ledger.
 * - every import stored whose chunks no workflow took up (split, or taken from the upload's batches: the
 *   API died or Temporal was away between storing the upload and starting `import-<id>`) has its workflow
 *   started; one whose workflow ended without taking them up (terminated) is recorded as Failed.
 * - every open recall whose follow-up (`recall-<id>`) is not running has it started again
 *   (usecases/recalls.ts followLostRecalls): its reminders and overdue notices go on.
 */
export function startStrandedBatches(deps: ReconcileDeps): ReconcilerActivities['startStrandedBatches'] {
  return async ({ olderThanSeconds }: StrandedBatchesInput): Promise<ReconcileBatchesResult> => {
    const stranded = await findStrandedBatches(deps.sequelize, olderThanSeconds, LIMIT);
    const { client, info } = Context.current();
    const result: ReconcileBatchesResult = {
      started: [],
      closed: [],
      resumed: [],
      importsStarted: [],
      importsFailed: [],
    };
    for (const row of stranded) {
      const batch = {
        id: row.id,
        accountId: row.account_id,
        workflowId: row.workflow_id,
        eventCount: row.event_count,
        requestId: row.request_id,
        mode: row.mode,
        retryOf: row.retry_of,
      };
      const start = batchStartOf(batch, row.account_name, deps.localMaxEvents);
      const log = activityLogger(deps.logger, { batchId: row.id, account: row.account_name });
      if (row.status === 'Running') {
        // A workflow Temporal no longer knows (its history deleted) is closed as far as the batch goes.
        const run = await latestRun(client, row.workflow_id);
        if (run?.status.name === 'RUNNING') continue; // still at work: a step retrying is not stranded
        await resumeBatchWorkflow(client, info.taskQueue, start);
        result.resumed.push(row.id);
        log.warn(
          { workflowId: row.workflow_id, closedRunId: run?.runId ?? null, closedAs: run?.status.name ?? 'NOT_FOUND' },
          'running batch whose workflow had been closed: run again by the reconciler',
        );
        continue;
      }
      const handle = await startBatchWorkflow(client, info.taskQueue, start);
      const { status } = await handle.describe();
      if (status.name === 'RUNNING') {
        result.started.push(row.id);
        log.warn({ workflowId: row.workflow_id }, 'stranded batch started by the reconciler');
        continue;
      }
      result.closed.push(row.id);
      const message = `The batch's workflow ${row.workflow_id} ended (${status.name}) before it stored anything.`;
      // Recorded as the pipeline records a failure: its account's endpoints are owed a batch.failed.
      const { result: recorded, owed } = await finishBatch(deps.sequelize, row.id, (transaction) =>
        recordBatchFailed(deps.sequelize, row.id, [internalError(message)], transaction),
      );
      if (recorded) batchesFailed.inc({ reason: 'InternalError' });
      await wakeWebhookEndpoints(client, info.taskQueue, owed, deps.webhooks);
      log.error(
        { workflowId: row.workflow_id, workflowStatus: status.name },
        'stranded batch whose workflow had ended: recorded as Failed',
      );
    }
    await startUnsplitImports(deps, client, info.taskQueue, olderThanSeconds, result);
    result.recallsFollowed = await followLostRecalls(deps.sequelize, client, info.taskQueue, olderThanSeconds, LIMIT);
    for (const recallId of result.recallsFollowed)
      deps.logger.warn(
        { recallId, activity: 'startStrandedBatches' },
        'open recall whose follow-up was not running: started again by the reconciler',
      );
    return result;
  };
}

/** The workflow's latest run; undefined when Temporal does not know it (never started, history deleted). */
const latestRun = (client: Client, workflowId: string) =>
  client.workflow
    .getHandle(workflowId)
    .describe()
    .catch((error: unknown) => {
      if (error instanceof WorkflowNotFoundError) return undefined;
      throw error;
    });

/** How the workflow of an import stands: absent (never started), running, or closed as what. */
const runOf = async (client: Client, workflowId: string): Promise<string> =>
  (await latestRun(client, workflowId))?.status.name ?? 'NOT_FOUND';

async function startUnsplitImports(
  deps: ReconcileDeps,
  client: Client,
  taskQueue: string,
  olderThanSeconds: number,
  result: ReconcileBatchesResult,
): Promise<void> {
  for (const row of await findUnsplitImports(deps.sequelize, olderThanSeconds, LIMIT)) {
    const log = deps.logger.child({ importId: row.id, account: row.account_name, activity: 'startStrandedBatches' });
    // A long file still being split is at work, not stranded.
    let run = await runOf(client, row.workflow_id);
    if (run === 'RUNNING') continue;
    if (run === 'NOT_FOUND') {
      try {
        await startImportWorkflow(client, taskQueue, row, deps.localMaxEvents);
        result.importsStarted!.push(row.id);
        log.warn({ workflowId: row.workflow_id }, 'stranded import started by the reconciler');
        continue;
      } catch (error) {
        // Started and closed in between (by the API's retry of the upload): decided below as any closed run.
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
        run = await runOf(client, row.workflow_id);
        if (run === 'RUNNING') continue;
      }
    }
    const reason = `The import's workflow ${row.workflow_id} ended (${run}) before it started its batches; nothing of it is stored. Upload the file again.`;
    if (await recordImportFailed(deps.sequelize, row.id, reason)) result.importsFailed!.push(row.id);
    log.error(
      { workflowId: row.workflow_id, workflowStatus: run },
      'stranded import whose workflow had ended: recorded as Failed',
    );
  }
}
