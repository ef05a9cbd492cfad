/** Master data looked up by the GS1 keys of EPCIS identifiers (POST /epcis/capture). */
import type { Sequelize } from 'sequelize';
import type { EpcisEvent, EpcisKnownEntities, referencedIdentifiers } from '../../domain/epcis/translate';
import type { EventPayload } from '../../domain/events';
import { queryOf, type Query } from '../sql';
import { storedEventIds } from './batch-events';
import { capturedSql, epcisSql, originalJoin, reversesSql } from './epcis-originals';

type Referenced = ReturnType<typeof referencedIdentifiers>;

/**
 * Products by GTIN (stored GTIN-8/12/13 compare as GTIN-14), locations by GLN and extension or, for a
 * non-GS1 location URI, by an id or URN equal to it; the account's own trade partner for new locations.
 * Rows without an external id cannot be named by events and are left out.
 */
export async function findEpcisEntities(
  sequelize: Sequelize,
  account: { id: string; name: string },
  refs: Referenced,
): Promise<EpcisKnownEntities> {
  const select = queryOf(sequelize);
  const [products, glnLocations, otherLocations, self, declared, pending] = await Promise.all([
    select<{ gtin: string; external_id: string; unit: string }>(
      `SELECT DISTINCT ON (lpad(gtin, 14, '0')) lpad(gtin, 14, '0') AS gtin, external_id, unit_of_measure AS unit FROM products
        WHERE account_id = $1 AND external_id IS NOT NULL AND lpad(gtin, 14, '0') = ANY($2::text[]) ORDER BY lpad(gtin, 14, '0'), seq`,
      [account.id, refs.gtins],
    ),
    select<{ key: string; external_id: string }>(
      `SELECT DISTINCT ON (key) key, external_id FROM (
         SELECT CASE WHEN extension IS NULL OR extension IN ('', '0') THEN gln ELSE gln || '/' || extension END AS key, external_id, seq
           FROM locations WHERE account_id = $1 AND external_id IS NOT NULL AND gln = ANY($2::text[])) AS l
        ORDER BY key, seq`,
      [account.id, refs.glns],
    ),
    select<{ key: string; external_id: string }>(
      `SELECT k AS key, l.external_id FROM unnest($2::text[]) AS k
         CROSS JOIN LATERAL (SELECT external_id FROM locations WHERE account_id = $1 AND (external_id = k OR urn = k) AND external_id IS NOT NULL
                              ORDER BY external_id = k DESC, seq LIMIT 1) AS l`,
      [account.id, refs.otherLocations],
    ),
    select<{ external_id: string; name: string }>(
      `SELECT external_id, name FROM trade_partners WHERE account_id = $1 AND connection_type = 'SELF' AND external_id IS NOT NULL ORDER BY created_at, external_id LIMIT 1`,
      [account.id],
    ),
    refs.declared.length
      ? select<{ row_id: string; event_id: string; hash: string | null; payload: EventPayload; declared: boolean }>(
          DECLARED_EVENTS,
          [account.id, refs.declared, ourEventIds(refs.declared)],
        )
      : [],
    // Declarations of events the account did not hold, by the eventID they declare: one not applied yet is applied by that event's capture.
    refs.declared.length || refs.eventIds.length
      ? pendingDeclarations(select, account.id, [...refs.declared, ...refs.eventIds])
      : [],
  ]);
  return {
    products: new Map(products.map((r) => [r.gtin, { externalId: r.external_id, unit: r.unit }])),
    glnLocations: new Map(glnLocations.map((r) => [r.key, r.external_id])),
    otherLocations: new Map(otherLocations.map((r) => [r.key, r.external_id])),
    // By eventID and by hash id: a declaration without an eventID names its event by the hash.
    declared: new Map(
      declared.flatMap((r) =>
        [r.event_id, ...(r.hash ? [r.hash] : [])].map(
          (key) => [key, { rowId: r.row_id, payload: r.payload, declared: r.declared }] as const,
        ),
      ),
    ),
    pendingDeclarations: new Map(pending.map((r) => [r.event_id, { rowId: r.row_id, epcis: r.epcis }])),
    self: self.length
      ? { Id: self[0].external_id, Name: self[0].name, ConnectionType: 'SELF' }
      : { Id: 'SELF', Name: account.name, ConnectionType: 'SELF' },
  };
}

/** SQL: whether account $1 holds a pending declaration (one probe of the partial index events_epcis_pending_declaration). */
export const ANY_PENDING_DECLARATION = `SELECT EXISTS (SELECT 1 FROM events WHERE account_id = $1 AND payload ? 'EpcisPendingDeclaration') AS pending`;

/**
 * The declarations, not yet applied, of the events `eventIds` names. Most accounts hold no pending
 * declaration at all: one probe of the partial index events_epcis_pending_declaration says so, where
 * planning the lookup of a document's thousand ids cost PostgreSQL more than running it, on every capture.
 */
async function pendingDeclarations(select: Query, accountId: string, eventIds: string[]) {
  const [{ pending }] = await select<{ pending: boolean }>(ANY_PENDING_DECLARATION, [accountId]);
  if (!pending) return [];
  return select<{ row_id: string; event_id: string; epcis: EpcisEvent }>(
    `SELECT e.id AS row_id, e.payload ->> 'EpcisPendingDeclaration' AS event_id, ${epcisSql()} AS epcis FROM events e ${originalJoin()}
      WHERE e.account_id = $1 AND e.payload ? 'EpcisPendingDeclaration' AND e.payload ->> 'EpcisPendingDeclaration' = ANY($2::text[])
        AND NOT EXISTS (SELECT 1 FROM events x WHERE x.account_id = e.account_id AND x.external_event_id = e.payload ->> 'EpcisPendingDeclaration')`,
    [accountId, eventIds],
  );
}

/**
 * SQL: the events of account $1 that error declarations name by $2: a captured event by its EPCIS eventID,
 * one of ours by its urn:uuid (as /epcis/events serves it; $3 holds those ids' uuids, so the primary key
 * finds it: the urn itself has no index), any by its hash id. Each branch is a probe of an index.
 */
export const DECLARED_EVENTS = `
  SELECT e.id AS row_id, CASE WHEN ${capturedSql()} THEN e.external_event_id ELSE e.urn END AS event_id, e.epcis_hash AS hash,
         e.payload - 'Epcis' - 'EpcisIndex' - 'EpcisContext' - 'EpcisOriginal' AS payload,
         e.payload ? 'EpcisDeclaredBy' OR EXISTS (SELECT 1 FROM events d WHERE ${reversesSql('d')}) AS declared
    FROM events e
   WHERE e.account_id = $1 AND NOT (e.payload ? 'EpcisDeclarationOf') AND NOT (e.payload ? 'EpcisPendingDeclaration')
     AND ((${capturedSql()} AND e.external_event_id = ANY($2::text[]))
          OR (NOT ${capturedSql()} AND e.id = ANY($3::uuid[]) AND e.urn = ANY($2::text[]))
          OR e.epcis_hash = ANY($2::text[]))`;

const OUR_EVENT_ID = /^urn:uuid:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The uuids of the ids among `ids` that name an event of ours (urn:uuid:…), for DECLARED_EVENTS' $3. */
export const ourEventIds = (ids: readonly string[]): string[] => ids.flatMap((id) => OUR_EVENT_ID.exec(id)?.[1] ?? []);

/**
 * SQL: which of the hash ids $2 the account $1 holds as events (a pending declaration has its event's hash
 * id, and is no duplicate of the event it declares). One probe of the hash-id index per hash (LATERAL,
 * with OFFSET 0 so the planner cannot turn it into one scan): with `= ANY($2)` over a document's 500
 * hashes the planner guessed that most events match and read the whole events table on every capture.
 */
export const HELD_EVENT_HASHES = `
  SELECT h.hash, e.external_event_id AS event_id
    FROM unnest($2::text[]) AS h(hash)
   CROSS JOIN LATERAL (
     SELECT external_event_id FROM events
      WHERE account_id = $1 AND epcis_hash = h.hash
        AND NOT (payload ? 'EpcisPendingDeclaration')
     OFFSET 0) AS e`;

/** Which of these CBV 2.0 event hash ids the account's events already have, with the eventID of the event that has it. */
export async function existingEventHashes(
  sequelize: Sequelize,
  accountId: string,
  hashes: string[],
): Promise<Map<string, string>> {
  const rows = await queryOf(sequelize)<{ hash: string; event_id: string }>(HELD_EVENT_HASHES, [
    accountId,
    [...new Set(hashes)],
  ]);
  return new Map(rows.map((r) => [r.hash, r.event_id]));
}

/** Which of these external event ids the account already has (proceed mode leaves those events out). */
export const existingEventIds = (sequelize: Sequelize, accountId: string, ids: string[]): Promise<Set<string>> =>
  storedEventIds(queryOf(sequelize), accountId, ids);
