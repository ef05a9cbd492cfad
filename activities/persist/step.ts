import type { Transaction } from 'sequelize';
import type { AccountRef } from '../../db/repositories/master-data';
import type { Query } from '../../db/sql';
import type { PersistEventsOutput } from '../../pipeline/contracts';
import type { BatchError } from '../../domain/batch-errors';

/**
 * What the checks work in: the account and one transaction. The API runs them too, in a transaction it
 * rolls back, to list a refused request's every problem (batches/border-check.ts).
 */
export interface CheckStep {
  account: AccountRef;
  /** Statements in `transaction`. */
  query: Query;
  transaction: Transaction;
  /** For the URNs of the products and locations a batch creates. */
  urnDomain: string;
  /**
   * Awaited before the checks create master data: persistEvents sets there the savepoint a refusal
   * rolls back to, so that what a refused batch created is not kept.
   */
  beforeWrite: () => Promise<void>;
}

/** What every step of persistEvents works in: the batch, its account, and the one transaction of the whole activity. */
export interface PersistStep extends CheckStep {
  batchId: string;
}

/** How the activity's transaction ended: the events stored, or the batch refused with its error list. */
export type PersistOutcome = PersistEventsOutput | { rejected: BatchError[]; recorded: 'now' | 'earlier' };

export const eventError = (
  event: { index: number; externalId: string },
  code: BatchError['code'],
  field: string,
  message: string,
): BatchError => ({
  index: event.index,
  eventId: event.externalId,
  code,
  field,
  message,
});
