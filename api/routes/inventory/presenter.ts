import type { InventoryRow } from '../../../db/queries/inventory';
import { utcWithZ } from '../../../domain/time';

interface LocationRef {
  locationId: string;
  externalLocationId: string | null;
  locationName: string;
}

type InventoryEntry = LocationRef & { quantityAvailable: number; eventDate: string };

/** A location where the lot's timeline goes below zero, and how far (its lowest balance). */
type NegativeAt = LocationRef & { quantity: number };

interface Lot {
  lotSerial: string;
  inventory: InventoryEntry[];
  /** Only on a lot that reads negative somewhere: an event that added it is missing (EPCIS records overdraws). */
  negative?: NegativeAt[];
}

interface ProductInventory {
  productId: string;
  externalProductId: string | null;
  productName: string;
  lots: Lot[];
}

/** Rows arrive ordered by product, lot and time; grouping keeps that order. */
export function presentInventory(rows: InventoryRow[]): { products: ProductInventory[] } {
  const products = new Map<string, ProductInventory>();
  const lots = new Map<string, Lot>();
  for (const row of rows) {
    let product = products.get(row.product_id);
    if (!product)
      products.set(
        row.product_id,
        (product = {
          productId: row.product_id,
          externalProductId: row.product_external_id,
          productName: row.product_name,
          lots: [],
        }),
      );
    const lotKey = `${row.product_id}\u0000${row.lot_serial}`;
    let lot = lots.get(lotKey);
    if (!lot) {
      lots.set(lotKey, (lot = { lotSerial: row.lot_serial, inventory: [] }));
      product.lots.push(lot);
    }
    const quantityAvailable = Number(row.available);
    const location: LocationRef = {
      locationId: row.location_id,
      externalLocationId: row.location_external_id,
      locationName: row.location_name,
    };
    lot.inventory.push({ ...location, quantityAvailable, eventDate: utcWithZ(row.event_time) });
    // A record's available quantity is the lowest balance from it on: below zero, the lot reads negative there.
    if (quantityAvailable < 0) {
      const negative = (lot.negative ??= []);
      const at = negative.find((n) => n.locationId === row.location_id);
      if (!at) negative.push({ ...location, quantity: quantityAvailable });
      else at.quantity = Math.min(at.quantity, quantityAvailable);
    }
  }
  return { products: [...products.values()] };
}
