/**
 * How much of each lot an account has, and where: the inventory records of the products and locations it
 * names (by service id or its own external id), at an instant or now.
 */
import type { Sequelize } from 'sequelize';
import { inventoryRecords, resolveIds, type InventoryRow } from '../db/queries/inventory';

export interface InventoryAsked {
  accountId: string;
  /** Service ids or the account's own external ids; at least one of the two lists is not empty. */
  products: string[];
  locations: string[];
  asOf?: Date;
}

export async function inventoryOf(sequelize: Sequelize, asked: InventoryAsked): Promise<InventoryRow[]> {
  const { accountId, products, locations, asOf } = asked;
  const [productIds, locationIds] = await Promise.all([
    resolveIds(sequelize, 'products', accountId, products),
    resolveIds(sequelize, 'locations', accountId, locations),
  ]);
  // Ids that name nothing of this account match nothing: an empty answer, not another account's rows.
  if ((products.length && !productIds.length) || (locations.length && !locationIds.length)) return [];
  return inventoryRecords(sequelize, { accountId, productIds, locationIds, asOf });
}
