/**
 * Our own events (batch-style and URN-based) as EPCIS 2.0 events, so /epcis/events serves every event
 * of an account whatever interface recorded it (README "EPCIS"). Pure: rows in, EPCIS JSON out.
 */
import type { EventType, LineRole } from '../events';
import { parseZone } from '../events';
import { locationDigitalLink, tradeItemDigitalLink } from './identifiers';
import { cbvTerm, type EpcisEvent, type EpcisQuantityElement } from './translate';

/** The EPCIS type, action, CBV business step and disposition of each of our eight types. */
export const NATIVE_MAPPING: Record<
  EventType,
  { type: string; action: 'ADD' | 'OBSERVE' | 'DELETE' | null; bizStep: string; disposition: string }
> = {
  Commission: { type: 'ObjectEvent', action: 'ADD', bizStep: 'commissioning', disposition: 'active' },
  Receive: { type: 'ObjectEvent', action: 'OBSERVE', bizStep: 'receiving', disposition: 'in_progress' },
  Ship: { type: 'ObjectEvent', action: 'OBSERVE', bizStep: 'shipping', disposition: 'in_transit' },
  Observe: { type: 'ObjectEvent', action: 'OBSERVE', bizStep: 'inspecting', disposition: 'active' },
  Decommission: { type: 'ObjectEvent', action: 'DELETE', bizStep: 'decommissioning', disposition: 'inactive' },
  Transform: { type: 'TransformationEvent', action: null, bizStep: 'commissioning', disposition: 'active' },
  Aggregation: { type: 'AggregationEvent', action: 'ADD', bizStep: 'packing', disposition: 'in_progress' },
  Disaggregation: { type: 'AggregationEvent', action: 'DELETE', bizStep: 'unpacking', disposition: 'in_progress' },
};

export interface NativeLocation {
  gln: string | null;
  extension: string | null;
  urn: string;
}

export interface NativeLine {
  role: LineRole;
  gtin: string | null;
  productUrn: string;
  serial: boolean;
  unit: string;
  lotSerial: string;
  quantity: string;
}

export interface NativeEvent {
  type: EventType;
  urn: string;
  eventTime: Date;
  eventTimeZone: string;
  recordTime: Date;
  /** A URN-based event's own BizStep and Disposition (POST /Integration/JSON), which win over the mapping's. */
  bizStep: string | null;
  disposition: string | null;
  location: NativeLocation;
  source: NativeLocation | null;
  destination: NativeLocation | null;
  lines: NativeLine[];
}

/** A location's EPCIS id: its GLN as a Digital Link when it has a well-formed one, else its URN. */
const nativeLocationId = (location: NativeLocation): string =>
  location.gln && /^\d{13}$/.test(location.gln)
    ? locationDigitalLink({
        gln: location.gln,
        ...(location.extension && location.extension !== '0' ? { extension: location.extension } : {}),
      })
    : location.urn;

/** A line's EPCIS identifier: a GTIN's Digital Link (serial or lot), else the product URN with the lot. */
export function nativeIdentifier(line: Pick<NativeLine, 'gtin' | 'productUrn' | 'serial' | 'lotSerial'>): string {
  const gtin = line.gtin && /^\d{8}$|^\d{12,14}$/.test(line.gtin) ? line.gtin.padStart(14, '0') : null;
  if (gtin) return tradeItemDigitalLink(line.serial ? { gtin, serial: line.lotSerial } : { gtin, lot: line.lotSerial });
  return `${line.productUrn}.${line.serial ? 'serial' : 'lot'}.${encodeURIComponent(line.lotSerial)}`;
}

/** `-05:00` for what EventTimeZone may hold (`-0500`, `UTC`, `Z`). */
function offsetOf(zone: string): string {
  const minutes = parseZone(zone) ?? 0;
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

const LISTS: Record<Exclude<LineRole, 'parent'>, { epcs: string; quantities: string }> = {
  instance: { epcs: 'epcList', quantities: 'quantityList' },
  child: { epcs: 'childEPCs', quantities: 'childQuantityList' },
  input: { epcs: 'inputEPCList', quantities: 'inputQuantityList' },
  output: { epcs: 'outputEPCList', quantities: 'outputQuantityList' },
};

export function nativeEpcisEvent(event: NativeEvent): EpcisEvent {
  const mapping = NATIVE_MAPPING[event.type];
  const where = nativeLocationId(event.location);
  const out: EpcisEvent = {
    type: mapping.type,
    eventID: event.urn,
    eventTime: event.eventTime.toISOString(),
    recordTime: event.recordTime.toISOString(),
    eventTimeZoneOffset: offsetOf(event.eventTimeZone),
    ...(mapping.action ? { action: mapping.action } : {}),
  };
  const lists: Record<string, (string | EpcisQuantityElement)[]> = {};
  for (const line of event.lines) {
    const id = nativeIdentifier(line);
    if (line.role === 'parent') {
      out.parentID = id;
      continue;
    }
    const names = LISTS[line.role];
    if (line.serial) (lists[names.epcs] ??= []).push(id);
    else (lists[names.quantities] ??= []).push({ epcClass: id, quantity: Number(line.quantity), uom: line.unit });
  }
  // ObjectEvents and AggregationEvents always carry their EPC list, empty or not.
  if (mapping.type === 'ObjectEvent') lists.epcList ??= [];
  if (mapping.type === 'AggregationEvent') lists.childEPCs ??= [];
  Object.assign(out, lists);
  out.bizStep = cbvTerm(event.bizStep ?? undefined) ?? mapping.bizStep;
  out.disposition = cbvTerm(event.disposition ?? undefined) ?? mapping.disposition;
  out.readPoint = { id: where };
  out.bizLocation = { id: where };
  if (event.source) out.sourceList = [{ type: 'location', source: nativeLocationId(event.source) }];
  if (event.destination) out.destinationList = [{ type: 'location', destination: nativeLocationId(event.destination) }];
  return out;
}
