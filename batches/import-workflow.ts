import type { Client, WorkflowHandle } from '@temporalio/client';
import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import type { processImport } from '../workflows';
import type { SplitImportInput } from '../pipeline/contracts';
import { ACCOUNT_NAME } from '../platform/search-attributes';

/** What starting a stored import's workflow needs: its workflow id, its input, what the UI's list says of it. */
export interface ImportStart {
  workflowId: string;
  input: SplitImportInput;
  kind: string;
  rowsRead: number;
  fileName: string;
}

/**
 * Starts `import-<id>`, or attaches to it when it runs already (the API and the reconciler may both get
 * there): the one start of `processImport`. A closed run is not started again (REJECT_DUPLICATE): an
 * import is split once; its start then throws WorkflowExecutionAlreadyStartedError.
 */
export function startImportWorkflow(
  client: Client,
  taskQueue: string,
  start: ImportStart,
): Promise<WorkflowHandle<typeof processImport>> {
  return client.workflow.start<typeof processImport>('processImport', {
    taskQueue,
    workflowId: start.workflowId,
    args: [start.input],
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    typedSearchAttributes: [{ key: ACCOUNT_NAME, value: start.input.accountName }],
    staticSummary: `${start.input.accountName} · import · ${start.kind} · ${start.rowsRead} rows · ${start.fileName}`,
    // An async batch's (batch-workflow.ts, nobody waits on it): its split step inherits it, its chunks' batches are given it.
    priority: { priorityKey: 3, fairnessKey: start.input.accountId },
  });
}
