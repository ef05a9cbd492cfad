/**
 * What the event endpoints share: the batch error list from ajv's errors, and the HTTP errors of a
 * batch's outcome (the outcome itself is batches/'s).
 */
import type { BatchError } from '../../../domain/batch-errors';
import type { ErrorObject } from 'ajv';
import type { Middleware } from 'koa';
import type { BatchOutcome } from '../../../batches/outcome';
import { rejectedBody } from '../../../batches/rejection';
import type { AppCustom } from '../../context';
import { batchRequestsRefused } from '../../../platform/metrics';
import { ApiError, problem, rawError } from '../../errors';
import { routeOf } from '../../middleware/request-context';
import { fieldOf, messageOf } from '../../../platform/json-schema';
import {
  problemFromErrors,
  validate,
  type InputOf,
  type RequestSchemas,
  type ToError,
  type ValidatedState,
} from '../../middleware/validate';
import { unknownPropertyOf } from '../../../domain/schemas/unknown-fields';
import { everyProblemOf, type EventReader } from '../../../batches/border-check';
import { statusUrl } from './presenter';

/** A body refused with the batch error list (400 `{ message, result: [], errors }`), keeping the list. */
class BatchRefusal extends ApiError {
  constructor(readonly errors: BatchError[]) {
    super(400, rejectedBody(errors), false);
  }
}

/** ajv's errors as the batch error list: the event's index and id (under `idKey`), the field inside the event. */
function schemaErrors(body: unknown, errors: ErrorObject[], idKey = 'Id'): BatchRefusal {
  const events = (body as { Events?: unknown })?.Events;
  const list: BatchError[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    // if/then wrappers only repeat what the inner errors already say.
    if (error.keyword === 'if') continue;
    const field = fieldOf(error);
    const match = /^Events\[(\d+)\]\.?(.*)$/.exec(field);
    const index = match ? Number(match[1]) : null;
    const event =
      index !== null && Array.isArray(events) ? (events[index] as Record<string, unknown> | undefined) : undefined;
    const id = event?.[idKey];
    const entry: BatchError = {
      index,
      eventId: typeof id === 'string' ? id : null,
      code:
        error.keyword === 'required'
          ? 'Required'
          : unknownPropertyOf(error) !== undefined
            ? 'UnknownField'
            : 'InvalidValue',
      field: match ? match[2] || '$' : field || '$',
      message: messageOf(error),
    };
    const key = `${entry.index}|${entry.field}|${entry.message}`;
    if (!seen.has(key)) list.push(entry);
    seen.add(key);
  }
  return new BatchRefusal(list);
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
  /**
   * A refused body's other events, read by this, are checked as the pipeline would check them
   * (batches/border-check.ts), so the 400 lists every problem of every event.
   */
  checkTheOthers?: EventReader;
}

/**
 * The validate middleware, answering a refused body with the batch error list (DESIGN.md): each event's
 * index and id, and with `checkTheOthers` the other events' problems too. A 4xx before the batch is
 * stored is counted (route and code): such a request leaves no batch to look at, so the metric is the
 * only trace support has of it.
 */
export const validateBatch = <S extends RequestSchemas>(
  schemas: S,
  { idKey = 'Id', refine, otherError = problemFromErrors, checkTheOthers }: BatchChecks<S> = {},
): Middleware<ValidatedState<S>, AppCustom> => {
  const check = validate(
    schemas,
    (errors, input, source) =>
      source === 'body' ? schemaErrors(input, errors, idKey) : otherError(errors, input, source),
    refine &&
      ((input) => {
        const errors = refine(input);
        return errors.length ? new BatchRefusal(errors) : undefined;
      }),
  );
  return async (ctx, next) => {
    try {
      await check(ctx, next);
    } catch (thrown) {
      let error = thrown;
      if (checkTheOthers && error instanceof BatchRefusal && !ctx.state.batchId) {
        const body = (ctx.request as { body?: unknown }).body;
        const { account } = ctx.state;
        error = new BatchRefusal(await everyProblemOf(ctx.deps, account, body, error.errors, checkTheOthers));
      }
      if (error instanceof ApiError && error.status >= 400 && error.status < 500 && !ctx.state.batchId) {
        const route = routeOf(ctx as Parameters<typeof routeOf>[0]);
        for (const code of refusalCodes(error)) batchRequestsRefused.inc({ route, code });
      }
      throw error;
    }
  };
};

/** An outcome that answers with an error rather than a batch: the refusal, or the pipeline's or Temporal's trouble. */
export type FailedOutcome = Extract<BatchOutcome, { kind: 'rejected' | 'pipelineFailed' | 'notStarted' }>;

/**
 * The HTTP error of such an outcome: a rejection is the 400 batch error list; the pipeline giving up
 * (nothing stored, send it again) and a workflow not started (stored; the reconciler starts it) are 503s
 * naming the batch. `followAt` is the URL a not-started batch's caller can GET (a capture job, a support
 * view); by default the async status.
 */
export function outcomeProblem(batchId: string, outcome: FailedOutcome, followAt = statusUrl(batchId)): ApiError {
  switch (outcome.kind) {
    case 'rejected':
      return rawError(400, rejectedBody(outcome.errors));
    case 'pipelineFailed':
      return problem('batch-pipeline-failed', {
        detail: `The pipeline could not process the batch; nothing was stored. Send it again. (${outcome.errors[0]?.message ?? 'no details'})`,
        batchId,
        statusUrl: statusUrl(batchId),
      });
    case 'notStarted':
      return problem('batch-not-started', {
        detail: `The batch was stored but its processing could not be started now; it is started automatically within ${outcome.startsWithinSeconds} seconds. Follow statusUrl for its result.`,
        batchId,
        statusUrl: followAt,
      });
  }
}
