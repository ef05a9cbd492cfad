/** What the Digital Link resolver looks up: the account's product by GTIN (and whether it holds a lot or serial), location by GLN, party by PGLN. */
import { QueryTypes, type Sequelize } from 'sequelize';
import type { MasterDataEntry } from '../models/product';
import type { Address, Vessel } from '../models/location';

export interface ResolvedProduct {
  external_id: string;
  name: string;
  gtin: string;
  unit_of_measure: string;
  master_data: MasterDataEntry[];
}

export interface ResolvedLocation {
  external_id: string;
  name: string;
  gln: string;
  address: Address | null;
  vessel: Vessel | null;
  captains_name: string | null;
  party_name: string;
}

export interface ResolvedParty {
  name: string;
  pgln: string;
}

const select = <T extends object>(sequelize: Sequelize, sql: string, bind: unknown[]) =>
  sequelize.query<T>(sql, { bind, type: QueryTypes.SELECT });

export async function productByGtin(
  sequelize: Sequelize,
  accountId: string,
  gtin14: string,
): Promise<ResolvedProduct | undefined> {
  const [row] = await select<ResolvedProduct>(
    sequelize,
    `SELECT external_id, name, lpad(gtin, 14, '0') AS gtin, unit_of_measure, master_data FROM products
      WHERE account_id = $1 AND external_id IS NOT NULL AND lpad(gtin, 14, '0') = $2 ORDER BY seq LIMIT 1`,
    [accountId, gtin14],
  );
  return row;
}

/** Whether the account's events name this lot or serial of the GTIN (on any of its products with that GTIN). */
export async function holdsLotOrSerial(
  sequelize: Sequelize,
  accountId: string,
  gtin14: string,
  lotSerial: string,
): Promise<boolean> {
  const [row] = await select<{ found: boolean }>(
    sequelize,
    `SELECT EXISTS (SELECT 1 FROM event_lines el JOIN products p ON p.id = el.product_id
                     WHERE el.account_id = $1 AND lpad(p.gtin, 14, '0') = $2 AND el.lot_serial = $3) AS found`,
    [accountId, gtin14, lotSerial],
  );
  return row.found;
}

export async function locationByGln(
  sequelize: Sequelize,
  accountId: string,
  gln: string,
): Promise<ResolvedLocation | undefined> {
  const [row] = await select<ResolvedLocation>(
    sequelize,
    `SELECT l.external_id, l.name, l.gln, l.address, l.vessel, l.captains_name, tp.name AS party_name FROM locations l JOIN trade_partners tp ON tp.id = l.trade_partner_id
      WHERE l.account_id = $1 AND l.external_id IS NOT NULL AND l.gln = $2 ORDER BY coalesce(nullif(l.extension, '0'), '') = '' DESC, l.seq LIMIT 1`,
    [accountId, gln],
  );
  return row;
}

export async function partyByPgln(
  sequelize: Sequelize,
  accountId: string,
  pgln: string,
): Promise<ResolvedParty | undefined> {
  const [row] = await select<ResolvedParty>(
    sequelize,
    `SELECT name, pgln FROM trade_partners WHERE account_id = $1 AND pgln = $2 ORDER BY created_at LIMIT 1`,
    [accountId, pgln],
  );
  return row;
}
