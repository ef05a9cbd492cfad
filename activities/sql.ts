import type { PoolClient } from 'pg';
import type { Sequelize, Transaction } from 'sequelize';

/**
 * The pg connection behind a Sequelize transaction. Set-based statements (unnest arrays, window
 * functions) are written in SQL and sent with pg's array parameters; the master-data repository still
 * runs its Sequelize calls in the same transaction.
 */
export const connectionOf = (transaction: Transaction): PoolClient => (transaction as unknown as { connection: PoolClient }).connection;

export async function inTransaction<T>(sequelize: Sequelize, task: (client: PoolClient, transaction: Transaction) => Promise<T>): Promise<T> {
  return sequelize.transaction((transaction) => task(connectionOf(transaction), transaction));
}

/** The advisory-lock key text of one inventory timeline. */
export const timelineKey = (accountId: string, productId: string, lotSerial: string, locationId: string): string =>
  `inventory|${accountId}|${productId}|${lotSerial}|${locationId}`;

/**
 * Takes a transaction-scoped advisory lock per key, in ascending order of the keys' hashes, so two
 * transactions that share keys always queue on the first shared one instead of deadlocking.
 */
export async function lockKeys(client: PoolClient, keys: readonly string[]): Promise<void> {
  if (!keys.length) return;
  await client.query(
    `SELECT count(pg_advisory_xact_lock(h)) FROM (SELECT DISTINCT hashtextextended(k, 0) AS h FROM unnest($1::text[]) AS k ORDER BY 1) AS sorted`,
    [keys],
  );
}
