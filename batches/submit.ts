/**
 * The batch use case's entrance: store a batch, start its workflow, and (when asked) wait for its
 * outcome. Every way in (POST /Integration/Events and /JSON, EPCIS capture, a retry) goes through here
 * and presents the typed outcome its own way.
 */
import type { Batch } from '../db/models';
import { findOrCreateBatch, recordRefusalAnswered, type NewBatch } from '../db/repositories/batches';
import { captureEpcis, type CaptureDeps, type CaptureInput } from '../usecases/capture-epcis';
import type { Config } from '../platform/config';
import type { Logger } from '../platform/logger';
import { batchStartOf, START_TIMEOUT_MS, startBatchWorkflow } from './batch-workflow';
import { isFinished, outcomeOf, waitForOutcome, type BatchOutcome, type WaitDeps } from './outcome';

/** What running a batch takes: the API process's deps have all of it. */
export interface BatchDeps extends WaitDeps {
  config: Pick<
    Config,
    'taskQueue' | 'syncWaitSeconds' | 'reconcileAfterSeconds' | 'reconcileEverySeconds' | 'pipelineLocalMaxEvents'
  >;
  logger: Logger;
  /** A worker of this process polls the sync task queue on the client's connection (the API's, API_SYNC_WORKER). */
  eagerStart?: boolean;
}

export interface RunOptions {
  /** Whose batch it is: the account name the workflow's search attributes and summary carry. */
  accountName: string;
  /**
   * Wait for the outcome: at most SYNC_WAIT_SECONDS (`pending` after that), for the caller of a sync
   * call, who is answered a refusal itself (so the batch is recorded as answered: no support case); or
   * until it ends (a person at a shell who asked for this one batch); false answers once the workflow
   * is started.
   */
  wait: boolean | 'untilDone';
  /** The request that asked, for the log line when the start fails. */
  requestId?: string | null;
}

/**
 * Starts (or attaches to) the stored batch's workflow and, with `wait`, waits for its outcome. A batch
 * that has its outcome already (an Idempotency-Key replay) answers it without asking Temporal. When
 * Temporal cannot be reached or refuses, the batch stays stored and `Accepted`: the reconciler starts it
 * (batches/start-stranded-batches.ts), and the outcome is `notStarted`.
 */
export async function runBatch(deps: BatchDeps, batch: Batch, options: RunOptions): Promise<BatchOutcome> {
  const outcome = await outcomeFor(deps, batch, options);
  if (options.wait === true && outcome.kind === 'rejected') {
    // Not worth failing the answer for: the batch then stays an open case, which is the safe side.
    await recordRefusalAnswered(batch.id).catch((error: unknown) =>
      deps.logger.warn({ err: error, batchId: batch.id }, 'could not record that the refusal was answered'),
    );
  }
  return outcome;
}

async function outcomeFor(deps: BatchDeps, batch: Batch, options: RunOptions): Promise<BatchOutcome> {
  if (isFinished(batch)) return outcomeOf(batch);
  const { temporal, config, logger } = deps;
  // Registered before the workflow can run, so that no announcement of its row is missed.
  const announced = options.wait ? deps.batchFinished?.waitFor(batch.id) : undefined;
  try {
    let handle;
    try {
      // Bounded: a Temporal that hangs must not hold the caller; the reconciler starts the batch later.
      handle = await temporal.withDeadline(Date.now() + START_TIMEOUT_MS, () =>
        startBatchWorkflow(
          temporal,
          config.taskQueue,
          batchStartOf(batch, options.accountName, config.pipelineLocalMaxEvents),
          { eager: deps.eagerStart },
        ),
      );
    } catch (error) {
      logger.error(
        { err: error, requestId: options.requestId ?? undefined, batchId: batch.id },
        'could not start the batch workflow; the reconciler will',
      );
      return { kind: 'notStarted', startsWithinSeconds: config.reconcileAfterSeconds + config.reconcileEverySeconds };
    }
    if (!options.wait) return { kind: 'pending' };
    const seconds = options.wait === 'untilDone' ? undefined : config.syncWaitSeconds;
    return await waitForOutcome(deps, batch, handle, { announced, seconds });
  } finally {
    announced?.cancel();
  }
}

/** A batch to submit: what is stored, and whose account it is. */
export interface BatchSubmission extends NewBatch {
  accountName: string;
}

/**
 * Stores the batch (or, with an Idempotency-Key, finds the first request's; IdempotencyKeyReused when
 * that had another body) and runs it: the batch and its outcome.
 */
export async function submitBatch(
  deps: BatchDeps,
  submission: BatchSubmission,
  options: { wait: boolean },
): Promise<{ batch: Batch; outcome: BatchOutcome }> {
  const { accountName, ...stored } = submission;
  const { batch } = await findOrCreateBatch(stored);
  const outcome = await runBatch(deps, batch, { accountName, wait: options.wait, requestId: submission.requestId });
  return { batch, outcome };
}

/**
 * Stores an EPCIS capture as its batch (usecases/capture-epcis.ts: CaptureRefused, nothing stored, when it
 * breaks a rule) and runs it: the batch and its outcome.
 */
export async function submitCapture(
  deps: BatchDeps & CaptureDeps,
  input: CaptureInput,
  options: { wait: boolean },
): Promise<{ batch: Batch; outcome: BatchOutcome }> {
  const batch = await captureEpcis(deps, input);
  const outcome = await runBatch(deps, batch, {
    accountName: input.account.name,
    wait: options.wait,
    requestId: input.requestId,
  });
  return { batch, outcome };
}
