/**
 * What a holder destroyed for a recall, recorded as a decommission in its own inventory. Apart from the
 * strategy's figures (domain/recall-strategy.ts), which the published contract, and so the pages, read.
 */
import type { EventPayload } from './events';
import { sha256Hex } from './hashing';

/** What a decommission recorded for a recall carries as its ReferenceDocumentId: how a later answer finds what is recorded already. */
export const recallReference = (recallId: string): string => `recall:${recallId}`;

/** A destruction in CBV terms, which win over the generic decommissioning / inactive of a decommission (EPCIS's view). */
const DESTROYED = {
  BizStep: 'urn:epcglobal:cbv:bizstep:destroying',
  Disposition: 'urn:epcglobal:cbv:disp:destroyed',
} as const;

export interface DestroyedLot {
  recallId: string;
  /** The holder's own ids of the product and location, as the batch pipeline looks them up. */
  productId: string;
  locationId: string;
  lotSerial: string;
  /** What this event records, on top of what was recorded for the recall before it. */
  quantity: number;
  recorded: number;
  at: Date;
}

/**
 * The decommission event (ObjectEvent DELETE, destroying, destroyed) of what a holder destroyed for a
 * recall. Its id follows from the recall, the lot and what was recorded before it, not from the new total
 * or the place: an answer sent again while the first one's batch ran starts from the same recorded figure,
 * so its event is refused as a duplicate instead of destroying a second time, whatever total it gives.
 */
export function destroyedEvent(lot: DestroyedLot): EventPayload & typeof DESTROYED {
  const key = sha256Hex([lot.productId, lot.lotSerial, lot.recorded].join('|')).slice(0, 16);
  return {
    $type: 'decommission',
    Id: `recall-${lot.recallId}-destroyed-${key}`,
    Location: { Id: lot.locationId },
    EventTime: lot.at.toISOString(),
    EventTimeZone: '+00:00',
    ReferenceDocumentId: recallReference(lot.recallId),
    ProductInstances: [{ Quantity: lot.quantity, LotSerial: lot.lotSerial, Product: { Id: lot.productId } }],
    ...DESTROYED,
  };
}
