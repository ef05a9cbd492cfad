/**
 * The pipeline's contracts: what the batch use case starts workflows with, what the workflows pass their
 * activities and what comes back. Neither side owns them, so both import them from here. No runtime code.
 */
import type { BatchError } from '../domain/batch-errors';
import type { EventType } from '../domain/events';

/**
 * A reference to the stored batch, never its events: every activity reads what it needs from the
 * batches row, so a batch of any size the API accepts fits Temporal's payload limit.
 */
export interface ProcessEventBatchInput extends BatchRef {
  /** The HTTP request that submitted the batch (X-Request-Id), for following it across logs. */
  requestId: string | null;
  /**
   * How many events the batch stored, and the largest batch whose steps run as local activities where
   * the run was started (PIPELINE_LOCAL_MAX_EVENTS): with both, a batch of at most that many events runs
   * its steps in one workflow task. Runs started before these fields run their steps as activity tasks.
   */
  eventCount?: number;
  localMaxEvents?: number;
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

export interface PersistEventsOutput {
  /** How many events the batch stored (their ids follow from the batch id: domain/hashing eventIdOf). */
  events: number;
  /** Whether any stored event names DocumentIds: without, there is nothing to attach. */
  documents: boolean;
  /** Whether any stored event is a commission: without, nothing goes onto the ledger. */
  commissions: boolean;
  /**
   * Whether the recalculation has anything to write: false when persist stored the batch's inventory
   * records final and every older record of their timelines keeps its values (new lots, additions after
   * the last record). Absent when a retried persist answered from the stored rows, and in histories
   * recorded before it was reported: the recalculation runs then.
   */
  recalculate?: boolean;
}

export interface AttachDocumentsOutput {
  /** By event id, for the events with documents that were not found (the others have none). */
  documentsNotAttached: Record<string, DocumentNotAttached[]>;
}

export type BatchStatusUpdate =
  | { batchId: string; status: 'Completed'; documentsNotAttached: Record<string, DocumentNotAttached[]> }
  | { batchId: string; status: 'Failed'; errors: BatchError[] };

export interface ReconcilerSettings {
  /** Batches `Accepted` (or `Running` with a closed workflow) for longer than this are started. */
  olderThanSeconds: number;
  /** The wait between two passes. */
  everySeconds: number;
}

/** The reconciler's settings; without `everySeconds`, one pass (the runs of the earlier versions' Schedule). */
export type ReconcileBatchesInput = Pick<ReconcilerSettings, 'olderThanSeconds'> &
  Partial<Pick<ReconcilerSettings, 'everySeconds'>>;

/** What one pass of the reconciler does. */
export type StrandedBatchesInput = Pick<ReconcilerSettings, 'olderThanSeconds'>;

export interface ReconcileBatchesResult {
  /** Batches whose workflow now runs. */
  started: string[];
  /** Batches whose workflow had ended without storing anything: recorded as Failed. */
  closed: string[];
  /** Running batches whose workflow had been closed before it finished them: run again. */
  resumed: string[];
  /** Imports stored but never split, whose workflow now runs. Absent from the passes of earlier versions. */
  importsStarted?: string[];
  /** Imports whose workflow had ended without splitting them: recorded as Failed. Absent before too. */
  importsFailed?: string[];
  /** Open recalls whose follow-up (followRecall) was not running: started again. Absent before recalls were reconciled. */
  recallsFollowed?: string[];
}

/**
 * The reconciler's activity: batches/start-stranded-batches.ts implements it (it starts workflows, so
 * it belongs to the batch use case, not the pipeline); the worker registers it beside the pipeline's.
 */
export interface ReconcilerActivities {
  startStrandedBatches(input: StrandedBatchesInput): Promise<ReconcileBatchesResult>;
}

/** processImport's input: the stored import, and the names its batches are started under. */
export interface SplitImportInput {
  importId: string;
  accountId: string;
  accountName: string;
  requestId: string | null;
  /** PIPELINE_LOCAL_MAX_EVENTS where the import was started, passed on to its batches (ProcessEventBatchInput). */
  localMaxEvents?: number;
}

/** An import whose split step failed for good, and why. */
export interface ImportFailure {
  importId: string;
  reason: string;
}

/** One chunk of an import, stored as a batch: the import's workflow starts it as a child. */
export interface ImportChunkBatch {
  seq: number;
  batchId: string;
  workflowId: string;
  eventCount: number;
}
