import { QueryTypes, type Sequelize } from 'sequelize';

export interface InventoryRow {
  product_id: string;
  product_name: string;
  lot_serial: string;
  location_id: string;
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
export async function resolveIds(sequelize: Sequelize, table: 'products' | 'locations', accountId: string, values: string[]): Promise<string[]> {
  if (!values.length) return [];
  const rows = await sequelize.query<{ id: string }>(
    `SELECT DISTINCT COALESCE(by_id.id, by_external.id) AS id
       FROM unnest($2::text[]) AS v(value)
       LEFT JOIN ${table} by_id ON by_id.account_id = $1
        AND by_id.id = CASE WHEN v.value ~* '^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$' THEN v.value::uuid END
       LEFT JOIN ${table} by_external ON by_external.account_id = $1 AND by_external.external_id = v.value
      WHERE COALESCE(by_id.id, by_external.id) IS NOT NULL`,
    { bind: [accountId, values], type: QueryTypes.SELECT },
  );
  return rows.map((r) => r.id);
}

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
    ? `SELECT DISTINCT ON (r.product_id, r.lot_serial, r.location_id) r.*
         FROM inventory_records r WHERE ${where}
        ORDER BY r.product_id, r.lot_serial, r.location_id, r.event_time DESC, r.event_seq DESC`
    : `SELECT r.* FROM inventory_records r WHERE ${where}`;
  return sequelize.query<InventoryRow>(
    `SELECT r.product_id, p.name AS product_name, r.lot_serial, r.location_id, l.name AS location_name,
            r.available, r.event_time
       FROM (${records}) r
       JOIN products p ON p.id = r.product_id
       JOIN locations l ON l.id = r.location_id
      ORDER BY p.seq, r.lot_serial, r.event_time, r.event_seq, l.seq`,
    { bind, type: QueryTypes.SELECT },
  );
}
