import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';

/**
 * Set-based statements (unnest arrays, window functions) are written in SQL and sent through
 * Sequelize's public query API with bind parameters: pg turns JS arrays into PostgreSQL arrays.
 */
export type Query = <T extends object>(sql: string, bind: unknown[]) => Promise<T[]>;

/** Rows of statements run on the pool, or inside `transaction` when given. */
export const queryOf =
  (sequelize: Sequelize, transaction?: Transaction): Query =>
  <T extends object>(sql: string, bind: unknown[]) =>
    sequelize.query<T>(sql, { bind, transaction, type: QueryTypes.SELECT });

/** A statement whose affected row count is what matters (UPDATE, DELETE, INSERT without RETURNING). */
export async function execute(
  sequelize: Sequelize,
  sql: string,
  bind: unknown[],
  transaction?: Transaction,
): Promise<number> {
  const [, affected] = await sequelize.query(sql, { bind, transaction, type: QueryTypes.UPDATE });
  return affected ?? 0;
}

/** The advisory-lock key text of one inventory timeline. */
export const timelineKey = (accountId: string, productId: string, lotSerial: string, locationId: string): string =>
  `inventory|${accountId}|${productId}|${lotSerial}|${locationId}`;

/** SQL: timelineKey's text from four text expressions, for a statement that locks the timelines it reads. */
const timelineKeySql = (accountId: string, productId: string, lotSerial: string, locationId: string): string =>
  `'inventory|' || ${accountId} || '|' || ${productId} || '|' || ${lotSerial} || '|' || ${locationId}`;

/** SQL: locks the hashes `hashes` selects (column h), ascending, as lockKeys does; one row, count. */
const lockHashesSql = (hashes: string): string =>
  `SELECT count(pg_advisory_xact_lock(h)) FROM (SELECT DISTINCT h FROM (${hashes}) AS hashes ORDER BY 1) AS sorted`;

/**
 * Takes a transaction-scoped advisory lock per key, in ascending order of the keys' hashes, so two
 * transactions that share keys always queue on the first shared one instead of deadlocking.
 */
export async function lockKeys(query: Query, keys: readonly string[]): Promise<void> {
  if (!keys.length) return;
  await query(lockHashesSql('SELECT hashtextextended(k, 0) AS h FROM unnest($1::text[]) AS k'), [keys]);
}

/**
 * SQL: a statement that locks, as lockKeys would, the timelines of the (product_id, lot_serial,
 * location_id) rows `timelines` selects, of the account in parameter `account` (such as `$2`), and
 * answers those rows.
 */
export const lockingTimelinesSql = (timelines: string, account: string): string => `
  WITH timelines AS (${timelines}),
  locked AS (${lockHashesSql(
    `SELECT hashtextextended(${timelineKeySql(`${account}::text`, 't.product_id::text', 't.lot_serial', 't.location_id::text')}, 0) AS h FROM timelines t`,
  )})
  SELECT t.product_id, t.lot_serial, t.location_id FROM timelines t, locked`;

/**
 * A point inside the transaction to return to: rolling back to it undoes every statement since, and
 * keeps the ones before (and the transaction) going. `name` is one of the caller's constants, never input.
 */
export async function savepoint(query: Query, name: string): Promise<void> {
  await query(`SAVEPOINT ${name}`, []);
}

export async function rollbackToSavepoint(query: Query, name: string): Promise<void> {
  await query(`ROLLBACK TO SAVEPOINT ${name}`, []);
}

/**
 * A savepoint set only once something is about to be written after it: a batch naming stored master
 * data writes nothing there.
 */
export interface LazySavepoint {
  /** Sets the savepoint, the first time only. */
  beforeWrite: () => Promise<void>;
  /** Undoes what was written since the savepoint; nothing when it was never set. */
  rollback: () => Promise<void>;
}

export function lazySavepoint(query: Query, name: string): LazySavepoint {
  let set = false;
  return {
    async beforeWrite() {
      if (set) return;
      await savepoint(query, name);
      set = true;
    },
    async rollback() {
      if (set) await rollbackToSavepoint(query, name);
    },
  };
}
