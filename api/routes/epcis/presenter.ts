import type { BatchError } from '../../../domain/batch-errors';
import type { Batch } from '../../../db/models';
import type { NegativeLot } from '../../../db/queries/inventory';
import type { ErrorObject } from 'ajv';
import { problem, type ApiError } from '../../errors';
import { textOf } from '../../middleware/validate';
import type { EpcisCaptureRequest, EpcisEventWarning } from '../../../usecases/capture-epcis';
import { WARNING_TITLES } from '../../../contract/epcis/schema';

const VALIDATION_EXCEPTION = 'epcisException:ValidationException';

/** GS1's 400 for a query: each parameter refused (ajv's errors), with what is wrong with it; `unknown` says it of one not taken. */
export const parameterProblem =
  (unknown = 'is not a known query parameter') =>
  (errors: ErrorObject[]): ApiError =>
    problem('epcis-invalid-query-parameters', {
      issues: errors.map((e) => {
        const name =
          e.instancePath.slice(1) || textOf(e.params, 'additionalProperty') || textOf(e.params, 'missingProperty');
        return {
          pointer: `/${name}`,
          message: `${name} ${e.keyword === 'additionalProperties' ? unknown : (e.message ?? 'is invalid')}.`,
        };
      }),
    });
export const queryProblem = parameterProblem();

export const captureLocation = (batchId: string): string => `/epcis/capture/${batchId}`;
export const eventLocation = (eventId: string): string => `/epcis/events/${encodeURIComponent(eventId)}`;

/** A pipeline error as one of a capture job's errors: an RFC 7807 problem naming the event; its code and field are stable, the detail says why. */
const jobError = (error: BatchError) => {
  const internal = error.code === 'InternalError';
  return {
    type: internal ? 'epcisException:ImplementationException' : VALIDATION_EXCEPTION,
    title: internal
      ? 'The service failed on the capture.'
      : error.eventId
        ? 'The event was refused.'
        : 'The capture was refused.',
    status: internal ? 500 : 400,
    detail: error.message,
    code: error.code,
    ...(error.field ? { field: error.field } : {}),
    ...(error.eventId ? { eventID: error.eventId } : {}),
  };
};

/**
 * A lot the capture took from that reads negative: the capture was stored (EPCIS records what happened),
 * but something is missing. Listed until the missing event arrives.
 */
const negativeWarning = (lot: NegativeLot) => ({
  type: 'NegativeInventory' as const,
  title: WARNING_TITLES.NegativeInventory,
  detail: `Lot ${lot.lot_serial} of product ${lot.product} at location ${lot.location} reads ${Number(lot.lowest)}: an event that added it is missing, or this capture took more than was there.`,
  product: lot.product,
  lotSerial: lot.lot_serial,
  location: lot.location,
  quantity: Number(lot.lowest),
});

/** An event's warning as stored; captures stored before 2026-12-07 hold the detail as `title`. */
type StoredWarning = EpcisEventWarning | (Omit<EpcisEventWarning, 'detail'> & { title: string });

const eventWarning = (warning: StoredWarning) => {
  const { detail, ...rest } = 'detail' in warning ? warning : { ...warning, detail: warning.title };
  return { ...rest, title: WARNING_TITLES[warning.type], detail };
};

/** GET /epcis/capture/{captureID}: the batch of the capture, as the standard's capture job; `negative` the lots it took below zero. */
export function captureJobBody(batch: Batch, negative: NegativeLot[] = []) {
  const request = batch.request as EpcisCaptureRequest;
  const failed = batch.status === 'Failed';
  const running = batch.status === 'Accepted' || batch.status === 'Running';
  const errors = [...request.rejected, ...((batch.errors as BatchError[] | null) ?? [])].map(jobError);
  return {
    captureID: batch.id,
    createdAt: batch.submittedAt.toISOString(),
    ...(batch.completedAt ? { finishedAt: batch.completedAt.toISOString() } : {}),
    running,
    success: !failed && request.rejected.length === 0,
    captureErrorBehaviour: request.captureErrorBehaviour,
    errors,
    // Beyond the standard's fields: the lots it left reading negative, the GDST KDEs its events lack, what it added to the master data.
    warnings: [
      ...negative.map(negativeWarning),
      ...((request.kdeWarnings as StoredWarning[] | undefined) ?? []).map(eventWarning),
    ],
    createdMasterData: request.created,
    masterData: request.masterData ?? { products: [], locations: [] },
  };
}
