import { sql } from './db';

export interface RecordRow {
  eventTime: string;
  delta: string;
  balance: string;
  available: string;
}

/** The timeline of one (product, lot, location) as stored, oldest first. */
export async function timelineOf(
  accountId: string,
  productId: string,
  lotSerial: string,
  locationId: string,
): Promise<RecordRow[]> {
  const { rows } = await sql().query<RecordRow>(
    `SELECT to_char(r.event_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "eventTime",
            r.delta::text AS delta, r.balance::text AS balance, r.available::text AS available
       FROM inventory_records r
       JOIN products p ON p.id = r.product_id
       JOIN locations l ON l.id = r.location_id
      WHERE r.account_id = $1 AND p.external_id = $2 AND r.lot_serial = $3 AND l.external_id = $4
      ORDER BY r.event_time, r.event_seq`,
    [accountId, productId, lotSerial, locationId],
  );
  return rows;
}

/** The latest available quantity of a lot at a location (0 when it has no records). */
export async function availableNow(
  accountId: string,
  productId: string,
  lotSerial: string,
  locationId: string,
): Promise<number> {
  const rows = await timelineOf(accountId, productId, lotSerial, locationId);
  return rows.length ? Number(rows[rows.length - 1].available) : 0;
}

export async function countEvents(accountId: string): Promise<number> {
  const { rows } = await sql().query<{ n: string }>('SELECT count(*) AS n FROM events WHERE account_id = $1', [
    accountId,
  ]);
  return Number(rows[0].n);
}
