import type { Sequelize, Transaction } from 'sequelize';
import { eventHashId, namespacesOfContext } from '../../domain/epcis/event-hash';
import type { EpcisOriginal, StoredCapturedEvent } from '../../domain/epcis/translate';
import { executeOf, queryOf } from '../sql';

/**
 * Captured events' originals (epcis_originals): written once with the capture's batch, named by the
 * batch's request and by each stored event (payload EpcisOriginal). Events captured before this table
 * hold theirs in their payload (Epcis, EpcisIndex, EpcisContext): every read below takes either.
 */

/**
 * SQL: the row of event `e`'s original, as `alias` (no row for an event that holds its own, or is not
 * captured). Only ever the account's own: the id comes from a payload.
 */
export const originalJoin = (e = 'e', alias = 'o'): string =>
  `LEFT JOIN epcis_originals ${alias} ON ${alias}.id = (${e}.payload ->> 'EpcisOriginal')::uuid AND ${alias}.account_id = ${e}.account_id`;

/**
 * SQL: the ids of the account's captured events whose match keys (domain/epcis/match-keys.ts) overlap
 * `keys` (a bound text[]): through their original's, or, captured before originals were stored apart,
 * their payload's; indexed both ways (db/migrations/20270101000000).
 */
export const capturedMatchingSql = (account: string, keys: string): string => `
  SELECT x.id
    FROM (SELECT o.id FROM epcis_originals o WHERE o.account_id = ${account} AND o.match_keys && ${keys}::text[] OFFSET 0) AS o
    CROSS JOIN LATERAL (SELECT x.id FROM events x
                         WHERE (x.payload ->> 'EpcisOriginal')::uuid = o.id AND x.payload ? 'EpcisOriginal') AS x
  UNION ALL
  SELECT x.id FROM events x
   WHERE x.account_id = ${account} AND x.payload ? 'Epcis'
     AND epcis_match_keys(x.payload -> 'Epcis', x.payload -> 'EpcisIndex') && ${keys}::text[]`;

/** SQL: event `e` was captured through EPCIS (its original apart, or in its payload). */
export const capturedSql = (e = 'e'): string => `(${e}.payload ? 'EpcisOriginal' OR ${e}.payload ? 'Epcis')`;

/**
 * SQL: event `d` is the error declaration that reverses event `e` (at most one). Its `?` lets PostgreSQL
 * use the partial unique index events_epcis_declaration, one probe; without it every event asked about
 * read the whole events table.
 */
export const reversesSql = (d: string, e = 'e'): string =>
  `${d}.account_id = ${e}.account_id AND ${d}.payload ? 'EpcisDeclarationOf' AND ${d}.payload ->> 'EpcisDeclarationOf' = ${e}.id::text`;

/** SQL: event `e`'s EPCIS original, its query index and its document's namespaces, with `originalJoin` as `o`. */
export const epcisSql = (e = 'e', o = 'o'): string => `coalesce(${o}.epcis, ${e}.payload -> 'Epcis')`;
export const epcisIndexSql = (e = 'e', o = 'o'): string => `coalesce(${o}.epcis_index, ${e}.payload -> 'EpcisIndex')`;
export const epcisContextSql = (e = 'e', o = 'o'): string => `coalesce(${o}.context, ${e}.payload -> 'EpcisContext')`;

/** SQL: what `payloadWithOriginal` reads of event `e`'s original, with `originalJoin` as `o`. */
export const originalColumnsSql = (o = 'o'): string =>
  `${o}.id IS NOT NULL AS has_original, ${o}.epcis AS original_epcis, ${o}.epcis_index AS original_index,
   ${o}.context IS NOT NULL AS has_original_context, ${o}.context AS original_context`;

export interface OriginalColumns {
  has_original: boolean;
  original_epcis: unknown;
  original_index: unknown;
  has_original_context: boolean;
  original_context: unknown;
}

/**
 * An event (its payload, or its entry in the batch's request) with its original in place, as events
 * captured before the originals were apart hold it: what the ledger hashes, so its chain covers the
 * original, and what the support views show. Merged here, not with jsonb operators in SQL, which cost
 * PostgreSQL about 10 ms per 500-event capture in the ledger's read.
 */
export function payloadWithOriginal(payload: Record<string, unknown>, row: OriginalColumns): Record<string, unknown> {
  if (!row.has_original) return payload;
  // Copied key by key: an object rest (`...rest`) takes V8's slow path, for each of a capture's commissions the ledger hashes.
  const merged: Record<string, unknown> = {};
  for (const key of Object.keys(payload)) if (key !== 'EpcisOriginal') merged[key] = payload[key];
  merged.Epcis = row.original_epcis;
  merged.EpcisIndex = row.original_index;
  if (row.has_original_context) merged.EpcisContext = row.original_context;
  return merged;
}

/** Stores a capture's originals, in the transaction that stores its batch. */
export async function insertEpcisOriginals(
  sequelize: Sequelize,
  accountId: string,
  originals: readonly EpcisOriginal[],
  transaction: Transaction,
): Promise<void> {
  if (!originals.length) return;
  await executeOf(sequelize, transaction)(
    `INSERT INTO epcis_originals (id, account_id, epcis, epcis_index, context, match_keys)
     SELECT (r ->> 'id')::uuid, $1, r -> 'epcis', r -> 'index', r -> 'context', ARRAY(SELECT jsonb_array_elements_text(r -> 'keys'))
       FROM jsonb_array_elements($2::jsonb) AS r`,
    // One JSON array, not a text[] of JSON: pg would escape every quote of every original into an array literal.
    [accountId, JSON.stringify(originals)],
  );
}

/**
 * A batch's stored request with its captured events' originals back in place (as the capture's translation
 * made them): what the support views show as the batch's request.
 */
export async function requestWithEpcisOriginals(
  sequelize: Sequelize,
  request: unknown,
): Promise<{ Events: unknown[] }> {
  const stored = request as { Events: unknown[] };
  const ids = stored.Events.flatMap((event) => {
    const id = (event as Partial<StoredCapturedEvent> | null)?.EpcisOriginal;
    return typeof id === 'string' ? [id] : [];
  });
  if (!ids.length) return { ...stored, Events: [...stored.Events] };
  const rows = await queryOf(sequelize)<OriginalColumns & { id: string }>(
    `SELECT o.id, ${originalColumnsSql()} FROM epcis_originals o WHERE o.id = ANY($1::uuid[])`,
    [ids],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const events = stored.Events.map((event) => {
    const id = (event as Partial<StoredCapturedEvent> | null)?.EpcisOriginal;
    const row = typeof id === 'string' ? byId.get(id) : undefined;
    return row ? payloadWithOriginal(event as Record<string, unknown>, row) : event;
  });
  return { ...stored, Events: events };
}

/** Rows read and written at a time by recomputeEpcisHashes. */
const HASH_CHUNK = 1000;

/**
 * Every captured event's CBV 2.0 event hash id (events.epcis_hash) computed again from its original by
 * today's rules (domain/epcis/event-hash.ts), for the migrations that change them. The payload's
 * EpcisHash stays as it was computed at capture: the ledger covers the payload.
 */
export async function recomputeEpcisHashes(sequelize: Sequelize): Promise<void> {
  for (let after = '00000000-0000-0000-0000-000000000000'; ;) {
    const rows = await queryOf(sequelize)<{ id: string; epcis: Record<string, unknown>; context: unknown }>(
      `SELECT e.id, ${epcisSql()} AS epcis, ${epcisContextSql()} AS context
         FROM events e ${originalJoin()}
        WHERE e.id > $1 AND (e.payload ? 'EpcisHash' OR e.payload ? 'EpcisPendingDeclaration')
        ORDER BY e.id
        LIMIT ${HASH_CHUNK}`,
      [after],
    );
    if (!rows.length) break;
    await executeOf(sequelize)(
      `UPDATE events e SET epcis_hash = u.hash FROM unnest($1::uuid[], $2::text[]) AS u(id, hash) WHERE e.id = u.id`,
      [rows.map((row) => row.id), rows.map((row) => eventHashId(row.epcis, namespacesOfContext(row.context ?? [])))],
    );
    after = rows[rows.length - 1].id;
  }
}
