import type { Client } from '@temporalio/client';
import {
  RECALL_CHANGED_SIGNAL,
  recallWorkflowId,
  type FollowRecallInput,
  type FollowRecallWorkflow,
} from '../domain/recall-contracts';

/**
 * Tells the recall's follow-up workflow that the recall changed, starting it if it is not running (a
 * recall just issued, or one whose start was lost): it reads the recall from PostgreSQL, so a signal
 * more or less changes nothing but the delay.
 */
export async function signalRecallFollowUp(client: Client, taskQueue: string, recallId: string): Promise<void> {
  const input: FollowRecallInput = { recallId };
  await client.workflow.signalWithStart<FollowRecallWorkflow, []>('followRecall', {
    taskQueue,
    workflowId: recallWorkflowId(recallId),
    args: [input],
    signal: RECALL_CHANGED_SIGNAL,
    signalArgs: [],
    staticSummary: `recall ${recallId}`,
  });
}
