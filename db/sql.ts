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

/**
 * Takes a transaction-scoped advisory lock per key, in ascending order of the keys' hashes, so two
 * transactions that share keys always queue on the first shared one instead of deadlocking.
 */
export async function lockKeys(query: Query, keys: readonly string[]): Promise<void> {
  if (!keys.length) return;
  await query(
    `SELECT count(pg_advisory_xact_lock(h)) FROM (SELECT DISTINCT hashtextextended(k, 0) AS h FROM unnest($1::text[]) AS k ORDER BY 1) AS sorted`,
    [keys],
  );
}

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
