/**
 * What the event endpoints share: the batch error list from ajv's errors, and running a batch's
 * workflow and waiting for its outcome (POST /Integration/Events and POST /Integration/JSON).
 */
import type { ErrorObject } from 'ajv';
import type { Middleware } from 'koa';
import type { WorkflowHandle } from '@temporalio/client';
import type { Batch } from '../../../db/models';
import { batchStartOf, startBatchWorkflow } from '../../../batches/batch-workflow';
import type { processEventBatch } from '../../../workflows';
import type { BatchError } from '../../../workflows/contracts';
import type { APIContext, AppCustom } from '../../context';
import { batchRequestsRefused } from '../../../platform/metrics';
import { ApiError, problem, rawError } from '../../errors';
import { routeOf } from '../../middleware/request-context';
import { fieldOf, messageOf, problemFromErrors, validate, type InputOf, type RequestSchemas, type ToError, type ValidatedState } from '../../middleware/validate';
import { unknownPropertyOf } from '../../unknown-fields';
import { batchStatusBody, rejectedBody, statusUrl, type AnsweredResult } from './presenter';

/** ajv's errors as the batch error list: the event's index and id (under `idKey`), the field inside the event. */
export function schemaErrors(body: unknown, errors: ErrorObject[], idKey = 'Id'): ApiError {
  const events = (body as { Events?: unknown })?.Events;
  const list: BatchError[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    // if/then wrappers only repeat what the inner errors already say.
    if (error.keyword === 'if') continue;
    const field = fieldOf(error);
    const match = /^Events\[(\d+)\]\.?(.*)$/.exec(field);
    const index = match ? Number(match[1]) : null;
    const event = index !== null && Array.isArray(events) ? (events[index] as Record<string, unknown> | undefined) : undefined;
    const id = event?.[idKey];
    const entry: BatchError = {
      index,
      eventId: typeof id === 'string' ? id : null,
      code: error.keyword === 'required' ? 'Required' : unknownPropertyOf(error) !== undefined ? 'UnknownField' : 'InvalidValue',
      field: match ? match[2] || '$' : field || '$',
      message: messageOf(error),
    };
    const key = `${entry.index}|${entry.field}|${entry.message}`;
    if (!seen.has(key)) list.push(entry);
    seen.add(key);
  }
  return rawError(400, rejectedBody(list));
}

/** The codes a refusal is counted under: each code of a batch error list, else the HTTP status. */
function refusalCodes(error: ApiError): string[] {
  const errors = (error.body as { errors?: unknown } | null)?.errors;
  if (Array.isArray(errors)) return [...new Set(errors.map((e: BatchError) => e.code))];
  return [`Http${error.status}`];
}

export interface BatchChecks<S extends RequestSchemas> {
  /** Where an event keeps its id (`Id`, or `ExternalEventId` on POST /Integration/JSON). */
  idKey?: string;
  /** What the schemas cannot say, as batch errors (answered like the schema's, with nothing stored). */
  refine?: (input: InputOf<S>) => BatchError[];
  /** The answer to a refused part other than the body (a header, a path id); by default a 400 problem. */
  otherError?: ToError;
}

/**
 * The validate middleware, answering a refused body with the batch error list (DESIGN.md): each event's
 * index and id. A 4xx before the batch is stored is counted (route and code): such a request leaves no
 * batch to look at, so the metric is the only trace support has of it.
 */
export const validateBatch = <S extends RequestSchemas>(
  schemas: S,
  { idKey = 'Id', refine, otherError = problemFromErrors }: BatchChecks<S> = {},
): Middleware<ValidatedState<S>, AppCustom> => {
  const check = validate(
    schemas,
    (errors, input, source) => (source === 'body' ? schemaErrors(input, errors, idKey) : otherError(errors, input, source)),
    refine &&
      ((input) => {
        const errors = refine(input);
        return errors.length ? rawError(400, rejectedBody(errors)) : undefined;
      }),
  );
  return async (ctx, next) => {
    try {
      await check(ctx, next);
    } catch (error) {
      if (error instanceof ApiError && error.status >= 400 && error.status < 500 && !ctx.state.batchId) {
        const route = routeOf(ctx as Parameters<typeof routeOf>[0]);
        for (const code of refusalCodes(error)) batchRequestsRefused.inc({ route, code });
      }
      throw error;
    }
  };
};

const START_TIMEOUT_MS = 10_000;

/** Whose batch it is, and where its caller follows it: by default the caller's account and the async status. */
export interface StartBatchOptions {
  accountName?: string;
  /** The URL the 503 names: the resource the caller can GET for this batch (a capture job, a support view). */
  statusUrl?: string;
}

/**
 * Starts (or attaches to) the stored batch's workflow. When Temporal cannot be reached or refuses, the
 * batch stays stored and `Accepted`: the reconciler starts it (batches/reconciler.ts), and the caller
 * gets its id with a 503.
 */
export async function startBatch(ctx: APIContext, batch: Batch, options: StartBatchOptions = {}): Promise<WorkflowHandle<typeof processEventBatch>> {
  const { accountName = ctx.state.account.name, statusUrl: followAt = statusUrl(batch.id) } = options;
  const { temporal, config, logger } = ctx.deps;
  try {
    // Bounded: a Temporal that hangs must not hold the request; the reconciler starts the batch later.
    return await temporal.withDeadline(Date.now() + START_TIMEOUT_MS, () => startBatchWorkflow(temporal, config.taskQueue, batchStartOf(batch, accountName)));
  } catch (error) {
    logger.error({ err: error, requestId: ctx.state.requestId, batchId: batch.id }, 'could not start the batch workflow; the reconciler will');
    throw problem(
      503,
      `The batch was stored but its processing could not be started now; it is started automatically within ${config.reconcileAfterSeconds + config.reconcileEverySeconds} seconds. Follow statusUrl for its result.`,
      { batchId: batch.id, statusUrl: followAt },
    );
  }
}

/** How a sync call ends: the per-event result list, or still under way once the wait is over. */
export type BatchOutcome = { done: true; result: AnsweredResult[] } | { done: false };

/**
 * Waits, at most SYNC_WAIT_SECONDS, for the batch's row to be finished (announced by PostgreSQL as the
 * last step commits) or the workflow to close, whichever comes first, and answers from the batch row:
 * its per-event result list, or `done: false` when it is still under way (the caller answers 202 like
 * async). A business rejection is the 400 batch error list, read from the batch row (fields renamed by `renameField` for a
 * request shape other than the pipeline's).
 */
export async function awaitBatchResult(
  ctx: APIContext,
  batch: Batch,
  handle: WorkflowHandle<typeof processEventBatch>,
  renameField: (field: string | null) => string | null = (field) => field,
): Promise<BatchOutcome> {
  const { temporal, config, batchFinished } = ctx.deps;
  const announced = batchFinished.waitFor(batch.id);
  const stopWaiting = new AbortController();
  try {
    const closed = temporal.withDeadline(Date.now() + config.syncWaitSeconds * 1000, () => temporal.withAbortSignal(stopWaiting.signal, () => handle.result()));
    // Once the row is finished the wait on the workflow is cancelled below: its rejection is expected.
    closed.catch(() => undefined);
    await Promise.race([closed, announced.finished]);
  } catch {
    // The wait ran out, Temporal went away, the pipeline failed or refused the batch: the batch row says
    // which (a refusal's whole error list is there; the workflow's failure names only the first error).
  } finally {
    announced.cancel();
    stopWaiting.abort();
  }
  // The workflow's last step wrote the per-event result list to the batch row.
  await batch.reload();
  return outcomeOf(batch, renameField);
}

/**
 * What a batch row answers a sync call: Completed, its result list; Failed, the 400 batch error list,
 * or a 503 when the pipeline itself gave up (nothing stored, send it again); otherwise still under way.
 * A replay of a finished batch and the end of a live wait answer alike.
 */
export function outcomeOf(batch: Batch, renameField: (field: string | null) => string | null = (field) => field): BatchOutcome {
  const status = batchStatusBody(batch);
  if (batch.status === 'Completed') return { done: true, result: status.result ?? [] };
  if (batch.status === 'Failed') {
    const errors = status.errors ?? [];
    if (errors.some((e) => e.code === 'InternalError')) {
      throw problem(503, `The pipeline could not process the batch; nothing was stored. Send it again. (${errors[0]?.message ?? 'no details'})`, {
        batchId: batch.id,
        statusUrl: statusUrl(batch.id),
      });
    }
    throw rawError(400, rejectedBody(errors.map((e) => ({ ...e, field: renameField(e.field) }))));
  }
  return { done: false };
}
