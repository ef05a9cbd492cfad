import type { Sequelize } from 'sequelize';
import { queryOf } from '../sql';

export interface InventoryRow {
  product_id: string;
  product_external_id: string | null;
  product_name: string;
  lot_serial: string;
  location_id: string;
  location_external_id: string | null;
  location_name: string;
  available: string;
  event_time: Date;
}

export interface InventoryFilter {
  accountId: string;
  productIds: string[];
  locationIds: string[];
  /** Only the record that applies at this instant per (product, lot, location): SPEC.md rule 1. */
  asOf?: Date;
}

/**
 * Service ids of the account's rows named by `values`. Each value is read as a service id first and as
 * the caller's external id only when no row has that service id: where a value could match both, the
 * service id wins. Values matching nothing are dropped.
 */
export async function resolveIds(
  sequelize: Sequelize,
  table: 'products' | 'locations',
  accountId: string,
  values: string[],
): Promise<string[]> {
  if (!values.length) return [];
  const rows = await queryOf(sequelize)<{ id: string }>(
    `SELECT DISTINCT COALESCE(by_id.id, by_external.id) AS id
       FROM unnest($2::text[]) AS v(value)
       LEFT JOIN ${table} by_id ON by_id.account_id = $1
        AND by_id.id = CASE WHEN v.value ~* '^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$' THEN v.value::uuid END
       LEFT JOIN ${table} by_external ON by_external.account_id = $1 AND by_external.external_id = v.value
      WHERE COALESCE(by_id.id, by_external.id) IS NOT NULL`,
    [accountId, values],
  );
  return rows.map((r) => r.id);
}

/**
 * The columns an answer reads, all in the timeline index: an index-only scan, no heap page per record.
 * Lines of one event on one timeline share (event_time, event_seq); available never falls from one to
 * the next (a minimum over fewer records), so the one that applies after the event has the most.
 */
const COLUMNS = 'r.product_id, r.lot_serial, r.location_id, r.event_time, r.event_seq, r.available';

/** Inventory records with their product and location names; oldest first within each product and lot. */
export async function inventoryRecords(sequelize: Sequelize, filter: InventoryFilter): Promise<InventoryRow[]> {
  const bind: unknown[] = [filter.accountId];
  const param = (value: unknown): string => `$${bind.push(value)}`;
  const conditions = ['r.account_id = $1'];
  if (filter.productIds.length) conditions.push(`r.product_id = ANY(${param(filter.productIds)}::uuid[])`);
  if (filter.locationIds.length) conditions.push(`r.location_id = ANY(${param(filter.locationIds)}::uuid[])`);
  if (filter.asOf) conditions.push(`r.event_time <= ${param(filter.asOf)}`);
  const where = conditions.join(' AND ');
  const records = filter.asOf
    ? `SELECT DISTINCT ON (r.product_id, r.lot_serial, r.location_id) ${COLUMNS}
         FROM inventory_records r WHERE ${where}
        ORDER BY r.product_id, r.lot_serial, r.location_id, r.event_time DESC, r.event_seq DESC, r.available DESC`
    : `SELECT ${COLUMNS} FROM inventory_records r WHERE ${where}`;
  return queryOf(sequelize)<InventoryRow>(
    `SELECT r.product_id, p.external_id AS product_external_id, p.name AS product_name, r.lot_serial,
            r.location_id, l.external_id AS location_external_id, l.name AS location_name,
            r.available, r.event_time
       FROM (${records}) r
       JOIN products p ON p.id = r.product_id
       JOIN locations l ON l.id = r.location_id
      ORDER BY p.seq, r.lot_serial, r.event_time, r.event_seq, l.seq, r.available`,
    bind,
  );
}

/**
 * A lot reads negative at a location when some balance of its timeline there is below zero (a record's
 * `available` is the lowest balance from it on): an event that added it is missing, or something took
 * more than was there. Only EPCIS captures are stored that way (DESIGN.md); the missing event, once it
 * arrives dated earlier, lifts the timeline and the lot no longer reads negative.
 */
export interface NegativeLot {
  batch_id: string;
  product: string;
  lot_serial: string;
  location: string;
  /** The timeline's lowest balance. */
  lowest: string;
}

/**
 * SQL: the lots each of the batches $2 consumed from that read negative now. It starts from the
 * account's negative records (the partial index inventory_records_negative: normally none), so a capture
 * job polled once it has finished costs no read of its batch's events and timelines.
 */
export const NEGATIVE_LOTS_OF_BATCHES = `
  WITH negative AS (
    SELECT product_id, lot_serial, location_id, min(available) AS lowest
      FROM inventory_records
     WHERE account_id = $1 AND available < 0
     GROUP BY product_id, lot_serial, location_id
  )
  SELECT c.batch_id, p.external_id AS product, n.lot_serial, l.external_id AS location, n.lowest::text AS lowest
    FROM negative n
   CROSS JOIN LATERAL (
     SELECT DISTINCT e.batch_id
       FROM inventory_records r JOIN events e ON e.id = r.event_id
      WHERE r.account_id = $1 AND r.product_id = n.product_id AND r.lot_serial = n.lot_serial
        AND r.location_id = n.location_id AND r.delta < 0 AND e.batch_id = ANY($2::uuid[])) AS c
    JOIN products p ON p.id = n.product_id
    JOIN locations l ON l.id = n.location_id
   ORDER BY p.seq, n.lot_serial, l.seq`;

/** SQL: whether account $1 has a record whose timeline reads negative (the partial index inventory_records_negative). */
export const ANY_NEGATIVE_RECORD =
  'SELECT EXISTS (SELECT 1 FROM inventory_records WHERE account_id = $1 AND available < 0) AS negative';

/** The lots each of `batchIds` consumed from that read negative now, in product, lot and location order. */
export async function negativeLotsOfBatches(
  sequelize: Sequelize,
  accountId: string,
  batchIds: string[],
): Promise<NegativeLot[]> {
  if (!batchIds.length) return [];
  // PostgreSQL takes longer to plan the statement below than to run it on an account without negative
  // records (the usual one): those are answered by one probe of the partial index instead.
  const query = queryOf(sequelize);
  const [{ negative }] = await query<{ negative: boolean }>(ANY_NEGATIVE_RECORD, [accountId]);
  if (!negative) return [];
  return query<NegativeLot>(NEGATIVE_LOTS_OF_BATCHES, [accountId, batchIds]);
}

/** How many (product, lot, location) timelines read negative, by account name: the /metrics gauge. */
export async function negativeLotCounts(sequelize: Sequelize): Promise<{ account: string; count: number }[]> {
  return queryOf(sequelize)<{ account: string; count: number }>(
    `SELECT a.name AS account, count(DISTINCT (r.product_id, r.lot_serial, r.location_id))::int AS count
       FROM inventory_records r JOIN accounts a ON a.id = r.account_id
      WHERE r.available < 0
      GROUP BY a.name`,
    [],
  );
}
