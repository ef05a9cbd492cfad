/**
 * What the event endpoints share: the batch error list from ajv's errors, and running a batch's
 * workflow and waiting for its outcome (POST /Integration/Events and POST /Integration/JSON).
 */
import type { AnySchema, ErrorObject } from 'ajv';
import type { Middleware } from 'koa';
import type { WorkflowHandle } from '@temporalio/client';
import type { Batch } from '../../../db/models';
import type { EventPayload } from '../../../domain/events';
import { rejectionOf, startBatchWorkflow } from '../../../runtime/batch-workflow';
import type { processEventBatch } from '../../../workflows';
import type { BatchError, EventResult } from '../../../workflows/contracts';
import type { APIContext, AppCustom, AppState } from '../../context';
import { rawError, type ApiError } from '../../errors';
import { fieldOf, messageOf, validate } from '../../middleware/validate';
import { batchStatusBody, rejectedBody } from './presenter';

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
      code: error.keyword === 'required' ? 'Required' : 'InvalidValue',
      field: match ? match[2] || '$' : field || '$',
      message: messageOf(error),
    };
    const key = `${entry.index}|${entry.field}|${entry.message}`;
    if (!seen.has(key)) list.push(entry);
    seen.add(key);
  }
  return rawError(400, rejectedBody(list));
}

/** The validate middleware, answering with the batch error list (DESIGN.md): each event's index and id. */
export const validateBatch = (schema: AnySchema, idKey = 'Id'): Middleware<AppState, AppCustom> =>
  validate(schema, 'body', (errors, body) => schemaErrors(body, errors, idKey));

/** Starts (or attaches to) the batch's workflow, with the account of the request. */
export function startBatch(ctx: APIContext, batch: Batch, events: EventPayload[]): Promise<WorkflowHandle<typeof processEventBatch>> {
  const { account } = ctx.state;
  return startBatchWorkflow(ctx.deps.temporal, ctx.deps.config.taskQueue, batch.workflowId, {
    batchId: batch.id,
    accountId: account.id,
    accountName: account.name,
    events,
  });
}

/**
 * Waits for the workflow and answers its per-event result list; a business rejection is the 400 batch
 * error list (fields renamed by `renameField` for a request shape other than the pipeline's).
 */
export async function awaitBatchResult(
  batch: Batch,
  handle: WorkflowHandle<typeof processEventBatch>,
  renameField: (field: string | null) => string | null = (field) => field,
): Promise<EventResult[]> {
  try {
    await handle.result();
  } catch (error) {
    const rejection = rejectionOf(error);
    if (rejection) throw rawError(400, rejectedBody(rejection.map((e) => ({ ...e, field: renameField(e.field) }))));
    throw error;
  }
  // The workflow's last step wrote the per-event result list to the batch row.
  await batch.reload();
  return batchStatusBody(batch).result ?? [];
}
