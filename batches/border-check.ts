/**
 * A request the API refuses for some of its events (the schema, the event rules) is answered with every
 * problem of every event, as a batch refused by the pipeline would be: the other events go through the
 * pipeline's own checks (duplicates, products and locations, inventory) in a transaction that is rolled
 * back, so nothing is stored and no batch is made. Only a refusal pays for this.
 */
import type { Sequelize, Transaction } from 'sequelize';
import { checkEvents } from '../activities/persist/checks';
import type { AccountRef } from '../db/repositories/master-data';
import { queryOf } from '../db/sql';
import type { BatchError } from '../domain/batch-errors';
import { withPrior } from '../domain/event-batch';
import type { EventPayload } from '../domain/events';
import { withUncheckedDependents } from '../domain/refused-events';
import type { Config } from '../platform/config';
import type { Logger } from '../platform/logger';

/** How the checks read a request's events: batch-style ones as they are, another shape translated. */
export interface EventReader {
  /**
   * The events outside `skip` as batch-style payloads, at their positions in the request (the others
   * are absent: the checks skip them), and the problems found translating them, by request position.
   */
  read: (
    account: AccountRef,
    events: readonly unknown[],
    skip: ReadonlySet<number>,
  ) => Promise<{ payloads: EventPayload[]; issues: BatchError[] }>;
  /** A field the checks name (batch-style), as the request names it. */
  fieldOf: (field: string | null) => string | null;
}

/** The events of POST /Integration/Events: those outside `skip` passed its schema, so they are the payloads it describes. */
export const batchStyleEvents: EventReader = {
  read: (_account, events) => Promise.resolve({ payloads: events as EventPayload[], issues: [] }),
  fieldOf: (field) => field,
};

export interface BorderCheckDeps {
  sequelize: Sequelize;
  config: Pick<Config, 'urnDomain'>;
  logger: Logger;
}

/**
 * The refusal's whole list: `refused` (what the API found, about the events it could not take as they
 * are) and what the checks find in the other events of `body`, by event. A failure of the whole body (no
 * event index) is answered alone: its events cannot be told apart.
 */
export async function everyProblemOf(
  deps: BorderCheckDeps,
  account: AccountRef,
  body: unknown,
  refused: readonly BatchError[],
  reader: EventReader = batchStyleEvents,
): Promise<BatchError[]> {
  const events = (body as { Events?: unknown } | null)?.Events;
  if (!Array.isArray(events) || refused.some((error) => error.index === null)) return [...refused];
  const skip = new Set(refused.flatMap((error) => (error.index === null ? [] : [error.index])));
  if (skip.size >= events.length) return [...refused];
  const found = await othersChecked(deps, account, events, skip, reader);
  if (!found) return [...refused];
  const listed = withUncheckedDependents(events, refused, found);
  return withPrior(listed.refused, listed.checked);
}

/**
 * What the pipeline's checks find in the events outside `skip`, in the request's field names, by event;
 * an event a refused one could explain is still listed (withUncheckedDependents sorts those out). Null
 * when the checks could not be run: the refusal then stands without them, and the caller learns the
 * others on the next round.
 */
export async function othersChecked(
  deps: BorderCheckDeps,
  account: AccountRef,
  events: readonly unknown[],
  skip: ReadonlySet<number>,
  reader: EventReader = batchStyleEvents,
): Promise<BatchError[] | null> {
  if (skip.size >= events.length) return [];
  try {
    const { payloads, issues } = await reader.read(account, events, skip);
    const checked = await rolledBack(deps.sequelize, (transaction) =>
      checkEvents(
        {
          account,
          query: queryOf(deps.sequelize, transaction),
          transaction,
          urnDomain: deps.config.urnDomain,
          // The whole transaction is rolled back: no savepoint to set.
          beforeWrite: async () => undefined,
        },
        payloads,
        skip,
      ),
    );
    // As the pipeline would refuse these events, in the request's field names.
    return withPrior(issues, checked.errors).map((error) => ({ ...error, field: reader.fieldOf(error.field) }));
  } catch (error) {
    deps.logger.warn({ err: error }, 'could not check the other events of a refused request');
    return null;
  }
}

/** Runs `work` in a transaction that is always rolled back: the checks create the master data they resolve. */
async function rolledBack<T>(sequelize: Sequelize, work: (transaction: Transaction) => Promise<T>): Promise<T> {
  const transaction = await sequelize.transaction();
  try {
    return await work(transaction);
  } finally {
    await transaction.rollback();
  }
}
