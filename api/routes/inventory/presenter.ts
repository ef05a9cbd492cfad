import type { InventoryRow } from '../../../db/queries/inventory';
import { utcWithZ } from '../../../domain/time';

interface InventoryEntry {
  locationId: string;
  locationName: string;
  quantityAvailable: number;
  eventDate: string;
}

interface Lot {
  lotSerial: string;
  inventory: InventoryEntry[];
}

interface ProductInventory {
  productId: string;
  productName: string;
  lots: Lot[];
}

/** Rows arrive ordered by product, lot and time; grouping keeps that order. */
export function presentInventory(rows: InventoryRow[]): { products: ProductInventory[] } {
  const products = new Map<string, ProductInventory>();
  const lots = new Map<string, Lot>();
  for (const row of rows) {
    let product = products.get(row.product_id);
    if (!product) products.set(row.product_id, (product = { productId: row.product_id, productName: row.product_name, lots: [] }));
    const lotKey = `${row.product_id}\u0000${row.lot_serial}`;
    let lot = lots.get(lotKey);
    if (!lot) {
      lots.set(lotKey, (lot = { lotSerial: row.lot_serial, inventory: [] }));
      product.lots.push(lot);
    }
    lot.inventory.push({
      locationId: row.location_id,
      locationName: row.location_name,
      quantityAvailable: Number(row.available),
      eventDate: utcWithZ(row.event_time),
    });
  }
  return { products: [...products.values()] };
}
