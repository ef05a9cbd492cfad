/** Types shared by the API (which starts batches) and the workflow (which runs them). No runtime code. */
import type { EventPayload, EventType } from '../domain/events';

export interface ProcessEventBatchInput {
  batchId: string;
  accountId: string;
  accountName: string;
  /** The events as the caller sent them, already checked against the API's schema. */
  events: EventPayload[];
}

export interface ProductInstanceResult {
  /** The caller's product id. */
  productId: string;
  lotSerial: string;
  quantity: number;
}

export interface DocumentNotAttached {
  documentId: string;
  reason: 'DocumentNotFound';
}

/** One element of the `result` array of POST /Integration/Events (SPEC.md, "Result element of an event"). */
export interface EventResult {
  id: string;
  externalEventId: string;
  type: EventType;
  status: 'Created';
  /** UTC with a +00:00 offset. */
  eventDate: string;
  productInstances: ProductInstanceResult[];
  documentsNotAttached: DocumentNotAttached[] | null;
}

export type BatchErrorCode =
  | 'Required'
  | 'InvalidValue'
  | 'InsufficientInventory'
  | 'DuplicateEventId'
  | 'UnknownProduct'
  | 'UnknownLocation'
  | 'InternalError';

/** One failure of a rejected batch (DESIGN.md "Batch results and errors"). */
export interface BatchError {
  index: number | null;
  eventId: string | null;
  code: BatchErrorCode;
  field: string | null;
  message: string;
  /** InsufficientInventory only: what was asked and what the timeline had. */
  product?: string;
  lotSerial?: string;
  location?: string;
  requested?: number;
  available?: number;
}

/**
 * The workflow's own result stays small: the per-event result list (what the HTTP answer carries) is
 * written to the batches row by the last step, and read from there by the API.
 */
export interface ProcessEventBatchResult {
  batchId: string;
  events: number;
}

/** Activity inputs and outputs: ids and small values, never whole rows. */
export interface BatchRef {
  batchId: string;
  accountId: string;
  /** For log lines: every pipeline line names its batch and account. */
  accountName: string;
}

export type PersistEventsInput = BatchRef;

export interface PersistEventsOutput {
  /** How many events the batch stored (their ids follow from the batch id: domain/hashing eventIdOf). */
  events: number;
}

export interface AttachDocumentsInput extends BatchRef {
  /** Per event, in batch order: the DocumentIds it sent (null when none). */
  documentIds: (string[] | null)[];
}

export interface AttachDocumentsOutput {
  /** Per event, in batch order. */
  documentsNotAttached: (DocumentNotAttached[] | null)[];
}

export type BatchStatusUpdate =
  | { batchId: string; status: 'Completed'; documentsNotAttached: (DocumentNotAttached[] | null)[] }
  | { batchId: string; status: 'Failed'; errors: BatchError[] };
