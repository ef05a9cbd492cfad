import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { BatchMode } from '../db/models';
import { queryOf } from '../db/sql';
import { batchStartOf, resumeBatchWorkflow, startBatchWorkflow } from '../batches/batch-workflow';
import type { ReconcileBatchesResult, StrandedBatchesInput } from '../workflows/contracts';
import type { ActivityDeps } from './deps';
import { activityLogger } from './logger';
import { recordBatchStatus } from './record-batch-status';

interface StrandedBatch {
  id: string;
  account_id: string;
  account_name: string;
  workflow_id: string;
  event_count: number;
  request_id: string | null;
  mode: BatchMode;
  retry_of: string | null;
  status: 'Accepted' | 'Running';
}

/**
 * Per run at most this many, Accepted before Running (batches whose steps keep failing stay Running and
 * must not crowd out the ones never started), oldest first: a backlog is worked off over the next runs.
 */
const LIMIT = 500;

/**
 * The reconciler's step, for batches past the threshold:
 * - every batch still `Accepted` has its workflow started, as the API would have (the API stores the
 *   batch, then starts it, and can die or be refused in between). A batch whose workflow already runs
 *   is left to it. One whose workflow ended without moving it on (terminated by an operator before it
 *   stored anything) is recorded as Failed: nothing of it is stored.
 * - every batch `Running` (its events stored) whose workflow was closed without finishing it (terminated
 *   by an operator, timed out) has its workflow run again, which completes it: left as it was, its
 *   timeline would not be recalculated nor its commissions put on the ledger.
 */
export function startStrandedBatches(deps: ActivityDeps) {
  const record = recordBatchStatus(deps);
  return async ({ olderThanSeconds }: StrandedBatchesInput): Promise<ReconcileBatchesResult> => {
    const stranded = await queryOf(deps.sequelize)<StrandedBatch>(
      `SELECT b.id, b.account_id, a.name AS account_name, b.workflow_id, b.event_count, b.request_id, b.mode, b.retry_of, b.status
         FROM batches b JOIN accounts a ON a.id = b.account_id
        WHERE (b.status = 'Accepted' AND b.submitted_at < now() - make_interval(secs => $1))
           OR (b.status = 'Running' AND b.started_at < now() - make_interval(secs => $1))
        ORDER BY b.status = 'Running', b.seq
        LIMIT ${LIMIT}`,
      [olderThanSeconds],
    );
    const { client, info } = Context.current();
    const result: ReconcileBatchesResult = { started: [], closed: [], resumed: [] };
    for (const row of stranded) {
      const batch = { id: row.id, accountId: row.account_id, workflowId: row.workflow_id, eventCount: row.event_count, requestId: row.request_id, mode: row.mode, retryOf: row.retry_of };
      const log = activityLogger(deps.logger, { batchId: row.id, account: row.account_name });
      if (row.status === 'Running') {
        // A workflow Temporal no longer knows (its history deleted) is closed as far as the batch goes.
        const run = await client.workflow
          .getHandle(row.workflow_id)
          .describe()
          .catch((error: unknown) => {
            if (error instanceof WorkflowNotFoundError) return undefined;
            throw error;
          });
        if (run?.status.name === 'RUNNING') continue; // still at work: a step retrying is not stranded
        await resumeBatchWorkflow(client, info.taskQueue, batchStartOf(batch, row.account_name));
        result.resumed.push(row.id);
        log.warn({ workflowId: row.workflow_id, closedRunId: run?.runId ?? null, closedAs: run?.status.name ?? 'NOT_FOUND' }, 'running batch whose workflow had been closed: run again by the reconciler');
        continue;
      }
      const handle = await startBatchWorkflow(client, info.taskQueue, batchStartOf(batch, row.account_name));
      const { status } = await handle.describe();
      if (status.name === 'RUNNING') {
        result.started.push(row.id);
        log.warn({ workflowId: row.workflow_id }, 'stranded batch started by the reconciler');
        continue;
      }
      result.closed.push(row.id);
      const message = `The batch's workflow ${row.workflow_id} ended (${status.name}) before it stored anything.`;
      await record({ batchId: row.id, status: 'Failed', errors: [{ index: null, eventId: null, code: 'InternalError', field: null, message }] });
      log.error({ workflowId: row.workflow_id, workflowStatus: status.name }, 'stranded batch whose workflow had ended: recorded as Failed');
    }
    return result;
  };
}
