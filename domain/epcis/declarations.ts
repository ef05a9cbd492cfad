/**
 * EPCIS error declarations: an event sent again with the same eventID and an `errorDeclaration` says
 * the first one was wrong. The service keeps the declared event, marks it (queries answer it with the
 * declaration and its correctiveEventIDs) and reverses what it did to inventory with a reversal event
 * of its own, dated at the declared event's time, so the timeline reads as if it had not happened.
 * Pure.
 */
import type { EventPayload, EventTypeName } from '../events';

/** The declared event as stored: its row id (what the reversal points at) and its batch-style payload. */
export interface DeclaredEvent {
  rowId: string;
  payload: EventPayload;
  /** Whether a declaration for it was captured already: a second one would reverse it twice. */
  declared: boolean;
}

/** What undoes each type's effect on inventory: additions are consumed, consumptions added back. */
const REVERSAL: Record<EventTypeName, EventTypeName> = {
  commission: 'decommission',
  receive: 'decommission',
  ship: 'receive',
  decommission: 'receive',
  transform: 'transform',
  observe: 'observe',
  aggregation: 'observe',
  disaggregation: 'observe',
};

/**
 * The reversal of a declared event: same location, time and lines with the opposite effect (a transform
 * gets its inputs back and gives its outputs up); types without an effect on inventory reverse to an
 * observation of nothing.
 */
export function reversalOf(declared: EventPayload, id: string): EventPayload {
  const type = REVERSAL[declared.$type];
  const base: EventPayload = {
    $type: type,
    Id: id,
    Location: declared.Location,
    EventTime: declared.EventTime,
    EventTimeZone: declared.EventTimeZone,
  };
  if (type === 'transform')
    return { ...base, InputProducts: declared.OutputProducts ?? [], OutputProducts: declared.InputProducts ?? [] };
  if (type === 'observe') return { ...base, ProductInstances: [] };
  return { ...base, ProductInstances: declared.ProductInstances ?? [] };
}
