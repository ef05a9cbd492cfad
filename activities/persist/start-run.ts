import { ApplicationFailure } from '@temporalio/activity';
import { markBatchRunning, storedBatchSummary, type StoredBatchRequest } from '../../db/repositories/batch-pipeline';
import { earlierRefusal } from './refuse';
import type { PersistOutcome, PersistStep } from './step';

/** The batch's request to check and store now, or the answer an earlier attempt of the step committed. */
export type RunStart = { kind: 'run'; request: StoredBatchRequest } | { kind: 'answered'; outcome: PersistOutcome };

/**
 * Reads the batch's stored request and marks it Running. The events come from the request the API wrote
 * before starting the workflow: the workflow and its history carry only the batch's id. Only this step
 * sets Running, in the transaction that stores the events, so a batch found Running by a retry had its
 * events stored (the answer is read from them) or none (the attempt before rolled back: run again).
 */
export async function startRun(step: PersistStep): Promise<RunStart> {
  const running = await markBatchRunning(step.query, step.batchId, step.account.id);
  if (running?.previous !== 'Accepted') {
    const stored = await storedBatchSummary(step.query, step.batchId);
    if (stored.events) return { kind: 'answered', outcome: stored };
  }
  if (!running) {
    const refused = await earlierRefusal(step);
    if (refused) return { kind: 'answered', outcome: { rejected: refused, recorded: 'earlier' } };
    throw ApplicationFailure.create({
      message: `Batch ${step.batchId} is not waiting to run.`,
      type: 'BatchNotRunnable',
      nonRetryable: true,
    });
  }
  return { kind: 'run', request: running.request };
}
