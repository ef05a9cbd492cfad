import { WorkflowExecutionAlreadyStartedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import type { processImport } from '../workflows';
import type { ImportRow, UnsplitImport } from '../db/repositories/imports';
import type { Config } from '../platform/config';
import { ACCOUNT_NAME } from '../platform/search-attributes';
import { START_TIMEOUT_MS } from './batch-workflow';

/**
 * Starts `import-<id>` for a stored import, or attaches to it when it runs already (the API and the
 * reconciler may both get there): the one start of `processImport`. A closed run is not started again
 * (REJECT_DUPLICATE): an import is split once; its start then throws WorkflowExecutionAlreadyStartedError.
 * `localMaxEvents`: PIPELINE_LOCAL_MAX_EVENTS where it is started, passed on to its batches.
 */
export function startImportWorkflow(
  client: Client,
  taskQueue: string,
  row: UnsplitImport,
  localMaxEvents?: number,
): Promise<WorkflowHandle<typeof processImport>> {
  const { account_id: accountId, account_name: accountName } = row;
  return client.workflow.start<typeof processImport>('processImport', {
    taskQueue,
    workflowId: row.workflow_id,
    args: [{ importId: row.id, accountId, accountName, requestId: row.request_id, localMaxEvents }],
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    typedSearchAttributes: [{ key: ACCOUNT_NAME, value: accountName }],
    staticSummary: `${accountName} · import · ${row.kind} · ${row.rows_read} rows · ${row.file_name}`,
    // An async batch's (batch-workflow.ts, nobody waits on it): its split step inherits it, its chunks' batches are given it.
    priority: { priorityKey: 3, fairnessKey: accountId },
  });
}

/**
 * Starts a just-stored import's workflow from the request that uploaded it, bounded as a batch's start (a
 * hung Temporal must not hold the request; the reconciler starts it later). One that runs already is fine.
 */
export async function startUploadedImport(
  deps: { temporal: Client; config: Pick<Config, 'taskQueue' | 'pipelineLocalMaxEvents'> },
  row: ImportRow,
  caller: { accountName: string; requestId: string | null },
): Promise<void> {
  const { temporal, config } = deps;
  const stored = { ...row, account_name: caller.accountName, request_id: caller.requestId };
  try {
    await temporal.withDeadline(Date.now() + START_TIMEOUT_MS, () =>
      startImportWorkflow(temporal, config.taskQueue, stored, config.pipelineLocalMaxEvents),
    );
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
