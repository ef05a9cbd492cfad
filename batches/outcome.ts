/**
 * How a batch ended, read from its row: the one place that decides what a Completed or Failed batch
 * answers. Every entrance (the event routes, EPCIS, the CLI) presents these outcomes in its own format.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { Batch } from '../db/models';
import type { BatchFinishedListener } from '../db/batch-finished';
import { isPipelineFailure, type BatchError } from '../domain/batch-errors';
import { gdstWarnings, requestVesselOf, type KdeWarning } from '../domain/gdst';
import type { EventPayload } from '../domain/events';
import type { processEventBatch } from '../workflows';
import type { EventResult } from '../pipeline/contracts';

/** An event's result as answered: with the GDST KDEs its event lacks, when there are some. */
export type AnsweredResult = EventResult & { warnings?: KdeWarning[] };

/**
 * What became of a submitted batch:
 * - `completed`: every event stored, the per-event result list;
 * - `rejected`: refused for what it says, nothing stored, every error;
 * - `pipelineFailed`: the pipeline gave up on it (nothing stored; sending it again may succeed);
 * - `pending`: stored and under way (not waited for, or the wait ran out);
 * - `notStarted`: stored, but its workflow could not be started now; the reconciler starts it within
 *   `startsWithinSeconds`.
 */
export type BatchOutcome =
  | { kind: 'completed'; result: AnsweredResult[] }
  | { kind: 'rejected'; errors: BatchError[] }
  | { kind: 'pipelineFailed'; errors: BatchError[] }
  | { kind: 'pending' }
  | { kind: 'notStarted'; startsWithinSeconds: number };

/**
 * Each result with the GDST KDEs its event lacks (`warnings`, only when there are some): as the pipeline
 * derived them from the stored master data, or, for a batch stored before it kept them, from its request.
 */
export function resultsOf(batch: Pick<Batch, 'result' | 'request' | 'warnings'>): AnsweredResult[] | null {
  const result = (batch.result as EventResult[] | null) ?? null;
  const kept = batch.warnings as KdeWarning[][] | null;
  const events = (batch.request as { Events?: EventPayload[] } | null)?.Events ?? [];
  const warningsOf = (i: number): KdeWarning[] =>
    kept ? (kept[i] ?? []) : events[i] ? gdstWarnings(events[i], i, requestVesselOf(events[i])) : [];
  return (
    result?.map((entry, i) => {
      const warnings = warningsOf(i);
      return warnings.length ? { ...entry, warnings } : entry;
    }) ?? null
  );
}

/** The errors a Failed batch's row lists. */
export const errorsOf = (batch: Pick<Batch, 'errors'>): BatchError[] | null =>
  (batch.errors as BatchError[] | null) ?? null;

/** Whether the batch has its outcome already: a replay answers it without asking Temporal. */
export const isFinished = (batch: Pick<Batch, 'status'>): boolean =>
  batch.status === 'Completed' || batch.status === 'Failed';

/**
 * What a batch row says: Completed, its result list; Failed, its errors (a refusal, or the pipeline
 * giving up); otherwise still under way. A replay of a finished batch and the end of a live wait answer alike.
 */
export function outcomeOf(batch: Batch): BatchOutcome {
  if (batch.status === 'Completed') return { kind: 'completed', result: resultsOf(batch) ?? [] };
  if (batch.status === 'Failed') {
    const errors = errorsOf(batch) ?? [];
    return isPipelineFailure(errors) ? { kind: 'pipelineFailed', errors } : { kind: 'rejected', errors };
  }
  return { kind: 'pending' };
}

/** What waiting on a batch takes; the API's deps have it all, the CLI all but the listener. */
export interface WaitDeps {
  temporal: Client;
  /** Wakes the wait as the batch's row is finished; without it, only the workflow's end does. */
  batchFinished?: BatchFinishedListener;
}

/** How long a wait that expects the row's announcement goes without asking Temporal whether the workflow closed. */
export const WORKFLOW_WAIT_DELAY_MS = 1000;

/**
 * Waits for the batch's row to be announced finished or its workflow to close, at most `seconds`
 * (without, until one of them), and answers from the batch row: the workflow's failure names only the
 * first error, the row has them all. `announced` (BatchFinishedListener.waitFor) is registered before the
 * workflow was started. While announcements arrive, the wait on the workflow (a long poll on Temporal)
 * starts only when none came within WORKFLOW_WAIT_DELAY_MS: it is there for a workflow that ends without
 * finishing the row (an operator terminated it) and for an announcement lost with the listener's connection.
 */
export async function waitForOutcome(
  { temporal, batchFinished }: WaitDeps,
  batch: Batch,
  handle: WorkflowHandle<typeof processEventBatch>,
  { announced, seconds }: { announced?: ReturnType<BatchFinishedListener['waitFor']>; seconds?: number },
): Promise<BatchOutcome> {
  const stop = new AbortController();
  try {
    const limitMs = seconds === undefined ? Infinity : seconds * 1000;
    const delayMs = batchFinished?.listening ? Math.min(WORKFLOW_WAIT_DELAY_MS, limitMs) : 0;
    const closed = sleep(delayMs, undefined, { signal: stop.signal }).then(() =>
      temporal.withAbortSignal(stop.signal, () => handle.result()),
    );
    // Once the row is finished or the limit is reached the wait on the workflow is cancelled below: its
    // rejection is expected.
    closed.catch(() => undefined);
    // A timer of its own rather than a gRPC deadline: the client's retries between attempts ignore that.
    const ranOut =
      seconds === undefined ? [] : [sleep(limitMs, undefined, { signal: stop.signal }).catch(() => undefined)];
    await Promise.race([closed, ...ranOut, ...(announced ? [announced.finished] : [])]);
  } catch {
    // Temporal went away, the pipeline failed or refused the batch: the batch row says which.
  } finally {
    stop.abort();
  }
  // The workflow's last step wrote the per-event result list (or the errors) to the batch row; the
  // request, which the caller holds and nothing changes, is not read again (a large batch's is most of the row).
  await batch.reload({ attributes: { exclude: ['request'] } });
  return outcomeOf(batch);
}
