import { createHash } from 'node:crypto';
import type { ClientBase } from 'pg';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';

/**
 * Set-based statements (unnest arrays, window functions) are written in SQL with bind parameters (pg
 * turns JS arrays into PostgreSQL arrays), sent through Sequelize's public query API (queryOf) or, on
 * the pipeline's hot path, as prepared statements on its connections (preparedQueryOf).
 */
export type Query = <T extends object>(sql: string, bind: unknown[]) => Promise<T[]>;

/**
 * A timestamptz as microseconds since 1970 in text, and back: exact both ways, where a Date keeps
 * milliseconds and a float8 loses microseconds after 2255 (page tokens hold a row's place in an order).
 */
export const microsOf = (timestamp: string): string => `(extract(epoch FROM ${timestamp}) * 1000000)::bigint::text`;
export const timestampOfMicros = (micros: string): string =>
  `(timestamptz 'epoch' + (${micros}::bigint / 1000000) * interval '1 second' + (${micros}::bigint % 1000000) * interval '1 microsecond')`;

/** Whether `text` is a uuid: any other text compared with a uuid column makes PostgreSQL refuse the query. */
export const isUuid = (text: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);

/** The arrays an `unnest($n::type[], ...)` takes: per key, every row's value of it, in row order. */
export const unnestArrays = <R, K extends keyof R>(rows: readonly R[], keys: readonly K[]): R[K][][] =>
  keys.map((key) => rows.map((row) => row[key]));

/** The values `entryOf` makes of the rows, by the key it gives each, in row order. */
export function groupBy<R, V>(rows: readonly R[], entryOf: (row: R) => [string, V]): Map<string, V[]> {
  const groups = new Map<string, V[]>();
  for (const [key, value] of rows.map(entryOf)) (groups.get(key) ?? groups.set(key, []).get(key)!).push(value);
  return groups;
}

/** Rows of statements run on the pool, or inside `transaction` when given. */
export const queryOf =
  (sequelize: Sequelize, transaction?: Transaction): Query =>
  <T extends object>(sql: string, bind: unknown[]) =>
    sequelize.query<T>(sql, { bind, transaction, type: QueryTypes.SELECT });

/** The first row of a statement run on the pool (or inside `transaction`), or null when it returns none. */
export const rowOf =
  (sequelize: Sequelize, transaction?: Transaction) =>
  async <T extends object>(sql: string, bind: unknown[]): Promise<T | null> =>
    (await queryOf(sequelize, transaction)<T>(sql, bind))[0] ?? null;

/** Sequelize's postgres dialect drops a pooled connection once it is marked so (its own flag, the one way to say it). */
export interface Droppable {
  _invalid?: boolean;
}

/** What Sequelize's postgres dialect hands out as a connection: a pg client. */
type PgConnection = Pick<ClientBase, 'query'> & Droppable;

/** At most this many statements a process prepares: the callers' SQL is fixed text, so this is never reached. */
const MAX_PREPARED = 256;
const preparedNames = new Map<string, string>();

/** A statement's name on every connection, from its text; undefined (sent unnamed) past MAX_PREPARED. */
function preparedNameOf(sql: string): string | undefined {
  let name = preparedNames.get(sql);
  if (name === undefined && preparedNames.size < MAX_PREPARED) {
    name = `q_${createHash('sha256').update(sql).digest('hex').slice(0, 32)}`;
    preparedNames.set(sql, name);
  }
  return name;
}

/**
 * SQLSTATEs after which a connection's prepared statements cannot be trusted again: the server lost one
 * (26000, a DISCARD ALL or a pooler between) or a migration changed what one returns (0A000, "cached plan
 * must not change result type"). pg would send the statement unparsed again and again on that connection.
 */
const STALE_PREPARED = new Set(['26000', '0A000']);

const statementListeners = new WeakMap<Sequelize, (() => void)[]>();

/** Calls `sent` as each statement goes out: Sequelize's own (its beforeQuery hook) and preparedQueryOf's. */
export function onEveryStatement(sequelize: Sequelize, sent: () => void): void {
  sequelize.addHook('beforeQuery', sent);
  statementListeners.set(sequelize, [...(statementListeners.get(sequelize) ?? []), sent]);
}

const preparedOn =
  (sequelize: Sequelize, connection: PgConnection): Query =>
  async <T extends object>(sql: string, bind: unknown[]) => {
    // Sequelize refuses an undefined bind; pg would send NULL and the statement would answer wrongly.
    const missing = bind.indexOf(undefined);
    if (missing >= 0) throw new Error(`Bind parameter $${missing + 1} has no value.`);
    for (const sent of statementListeners.get(sequelize) ?? []) sent();
    try {
      return (await connection.query<T>({ name: preparedNameOf(sql), text: sql, values: bind })).rows;
    } catch (error) {
      if (STALE_PREPARED.has((error as { code?: string }).code ?? '')) connection._invalid = true;
      throw error;
    }
  };

/**
 * Rows of statements sent as named prepared statements: PostgreSQL parses and plans each one once per
 * connection instead of on every call. Planning was most of PostgreSQL's time in a one-event batch
 * (4.7 ms of 8.1 per call, 2.3 ms of it for the completion's one statement). Inside `transaction` they
 * run on its connection; without one, on a connection taken from Sequelize's pool for the statement.
 * For the pipeline's steps, whose statements are fixed text: an error is pg's as it is, not one of
 * Sequelize's classes, since a step's failure is retried or recorded, never mapped to an HTTP answer.
 */
export function preparedQueryOf(sequelize: Sequelize, transaction?: Transaction): Query {
  if (transaction) {
    const open = transaction as Transaction & { connection: PgConnection; finished?: string };
    const prepared = preparedOn(sequelize, open.connection);
    // As Sequelize does: a finished transaction's connection is back in the pool, maybe in another's hands.
    return async <T extends object>(sql: string, bind: unknown[]) => {
      if (open.finished) throw new Error(`The transaction has finished (${open.finished}): no statement runs in it.`);
      return prepared<T>(sql, bind);
    };
  }
  return async <T extends object>(sql: string, bind: unknown[]) => {
    const { connectionManager } = sequelize;
    const connection = (await connectionManager.getConnection({ type: 'write' })) as PgConnection;
    try {
      return await preparedOn(sequelize, connection)<T>(sql, bind);
    } finally {
      connectionManager.releaseConnection(connection);
    }
  };
}

/** Affected row counts of statements (UPDATE, DELETE, INSERT without RETURNING) on the pool, or inside `transaction`. */
export const executeOf =
  (sequelize: Sequelize, transaction?: Transaction) =>
  async (sql: string, bind: unknown[]): Promise<number> => {
    const [, affected] = await sequelize.query(sql, { bind, transaction, type: QueryTypes.UPDATE });
    return affected ?? 0;
  };

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
 * answers those rows (as productId, lotSerial, locationId).
 */
export const lockingTimelinesSql = (timelines: string, account: string): string => `
  WITH timelines AS (${timelines}),
  locked AS (${lockHashesSql(
    `SELECT hashtextextended(${timelineKeySql(`${account}::text`, 't.product_id::text', 't.lot_serial', 't.location_id::text')}, 0) AS h FROM timelines t`,
  )})
  SELECT t.product_id AS "productId", t.lot_serial AS "lotSerial", t.location_id AS "locationId" FROM timelines t, locked`;

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
 * A savepoint set only once something is about to be written after it (beforeWrite, the first time
 * only): a batch naming stored master data writes nothing there. Its rollback does nothing when unset.
 */
export function lazySavepoint(query: Query, name: string) {
  let set = false;
  return {
    beforeWrite: async () => {
      if (set) return;
      await savepoint(query, name);
      set = true;
    },
    rollback: async () => {
      if (set) await rollbackToSavepoint(query, name);
    },
  };
}
export type LazySavepoint = ReturnType<typeof lazySavepoint>;
