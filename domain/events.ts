/**
 * Events as the batch-style shape carries them (DESIGN.md "Events"), and their normalisation into one
 * internal shape: typed lines with a role and an inventory sign, and the event time in UTC. Pure.
 */
import type { LocationPayload, ProductPayload } from './master-data';

export const EVENT_TYPE_NAMES = [
  'commission',
  'receive',
  'ship',
  'transform',
  'aggregation',
  'disaggregation',
  'observe',
  'decommission',
] as const;
export type EventTypeName = (typeof EVENT_TYPE_NAMES)[number];
export type EventType = Capitalize<EventTypeName>;
/** The stored spelling of a type: capitalised. */
export const capitalise = (type: EventTypeName): EventType =>
  (type.charAt(0).toUpperCase() + type.slice(1)) as EventType;
export const EVENT_TYPES: readonly EventType[] = EVENT_TYPE_NAMES.map(capitalise);

/** A product reference: `Details` creates the product when its Id is new to the account. */
export interface ProductRefPayload {
  Id: string;
  /** Used as the new product's URN instead of a generated one (URN-based events). */
  Urn?: string;
  Details?: ProductPayload['Details'];
}

/** A location reference: `Details` creates the location when its Id is new to the account. */
export type LocationRefPayload = Partial<LocationPayload>;

export interface ProductInstancePayload {
  Quantity: number;
  LotSerial: string;
  Product: ProductRefPayload;
}

export interface EventPayload {
  $type: EventTypeName;
  Id: string;
  Location: LocationRefPayload;
  EventTime: string;
  EventTimeZone: string;
  PurchaseOrder?: string | null;
  InvoiceNumber?: string | null;
  DocumentIds?: string[] | null;
  ReferenceDocumentId?: string | null;
  CustomProperties?: unknown[];
  CertificationList?: unknown[];
  ProductInstances?: ProductInstancePayload[];
  SourceLocation?: LocationRefPayload;
  DestinationLocation?: LocationRefPayload;
  InputProducts?: ProductInstancePayload[];
  OutputProducts?: ProductInstancePayload[];
  ParentLotSerial?: string;
  Product?: ProductRefPayload;
  ChildProductInstances?: ProductInstancePayload[];
  /** The EPCIS event this one was captured as (POST /epcis/capture), stored and answered as sent. */
  Epcis?: object;
  /** A captured event whose original is stored once, apart (epcis_originals): that row's id. */
  EpcisOriginal?: string;
}

export type LineRole = 'instance' | 'input' | 'output' | 'parent' | 'child';

export interface NormalisedLine {
  role: LineRole;
  /** Position within the event's lines of this role. */
  position: number;
  product: ProductRefPayload;
  lotSerial: string;
  /** As sent; Serial products count 1 per instance, which is applied once the product is known. */
  quantity: number;
  /** Effect on inventory at the event's location: +1 adds, -1 consumes, 0 none. */
  sign: 1 | -1 | 0;
  /** Payload path of the line, for error messages. */
  field: string;
}

const ZONE = /^(?:Z|UTC|([+-])(\d{2}):?(\d{2}))$/i;
const TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Minutes east of UTC for "+05:30", "-0500", "Z"; undefined when malformed or out of range. */
export function parseZone(zone: string): number | undefined {
  const match = ZONE.exec(zone.trim());
  if (!match) return undefined;
  if (!match[1]) return 0;
  const hours = Number(match[2]);
  const minutes = Number(match[3]);
  if (hours > 14 || minutes > 59) return undefined;
  return (match[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

export type TimeResult = { ok: true; utc: Date } | { ok: false; field: 'EventTime' | 'EventTimeZone'; message: string };

/**
 * `EventTime` without an offset is local time in `EventTimeZone`; an offset in `EventTime` wins over the
 * zone. Both must be present and well formed, and the date must exist (no 31 February).
 */
export function parseEventTime(time: unknown, zone: unknown): TimeResult {
  if (typeof time !== 'string' || !time.trim())
    return { ok: false, field: 'EventTime', message: 'EventTime is required.' };
  if (typeof zone !== 'string' || !zone.trim())
    return { ok: false, field: 'EventTimeZone', message: 'EventTimeZone is required.' };
  const zoneMinutes = parseZone(zone);
  if (zoneMinutes === undefined) {
    return {
      ok: false,
      field: 'EventTimeZone',
      message: `EventTimeZone "${zone}" is not a UTC offset such as -05:00 or +01:00.`,
    };
  }
  const match = TIME.exec(time.trim());
  const bad = {
    ok: false as const,
    field: 'EventTime' as const,
    message: `EventTime "${time}" is not an ISO 8601 date-time such as 2024-03-01T10:00:00.`,
  };
  if (!match) return bad;
  const [, y, mo, d, h, mi, s = '0', frac = '0', offset] = match;
  const offsetMinutes = offset === undefined ? zoneMinutes : parseZone(offset);
  if (offsetMinutes === undefined) return bad;
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  // setUTCFullYear, not Date.UTC: that reads the years 0 to 99 as 1900 to 1999.
  const check = new Date(0);
  check.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  check.setUTCHours(Number(h), Number(mi), Number(s), ms);
  const local = check.getTime();
  if (
    check.getUTCFullYear() !== Number(y) ||
    check.getUTCMonth() !== Number(mo) - 1 ||
    check.getUTCDate() !== Number(d) ||
    check.getUTCHours() !== Number(h) ||
    check.getUTCMinutes() !== Number(mi) ||
    check.getUTCSeconds() !== Number(s)
  ) {
    return bad;
  }
  const utc = new Date(local - offsetMinutes * 60_000);
  // PostgreSQL reads ISO 8601's four-digit years only: 9999-12-31T23:59:59-12:00 is in the year 10000 in UTC.
  if (utc.getUTCFullYear() < 1 || utc.getUTCFullYear() > 9999)
    return { ok: false, field: 'EventTime', message: `EventTime "${time}" is not in the years 0001 to 9999 in UTC.` };
  return { ok: true, utc };
}

/** SPEC.md's result dates: UTC with a +00:00 offset, milliseconds only when there are some. */
export const formatEventDate = (date: Date): string =>
  date
    .toISOString()
    .replace(/\.000Z$/, 'Z')
    .replace(/Z$/, '+00:00');

const linesOf = (
  instances: ProductInstancePayload[] | undefined,
  role: LineRole,
  sign: 1 | -1 | 0,
  field: string,
): NormalisedLine[] =>
  (instances ?? []).map((instance, position) => ({
    role,
    position,
    product: instance.Product,
    lotSerial: instance.LotSerial,
    quantity: instance.Quantity,
    sign,
    field: `${field}[${position}]`,
  }));

/** The lines of an event by type (DESIGN.md's table): what it names and how it moves inventory. */
export function linesOfEvent(event: EventPayload): NormalisedLine[] {
  switch (event.$type) {
    case 'commission':
    case 'receive':
      return linesOf(event.ProductInstances, 'instance', 1, 'ProductInstances');
    case 'ship':
    case 'decommission':
      return linesOf(event.ProductInstances, 'instance', -1, 'ProductInstances');
    case 'observe':
      return linesOf(event.ProductInstances, 'instance', 0, 'ProductInstances');
    case 'transform':
      return [
        ...linesOf(event.InputProducts, 'input', -1, 'InputProducts'),
        ...linesOf(event.OutputProducts, 'output', 1, 'OutputProducts'),
      ];
    case 'aggregation':
    case 'disaggregation': {
      const children = linesOf(event.ChildProductInstances, 'child', 0, 'ChildProductInstances');
      if (!event.Product || !event.ParentLotSerial) return children;
      // The parent (a pallet, a tote) is one container; containment moves no inventory.
      return [
        {
          role: 'parent',
          position: 0,
          product: event.Product,
          lotSerial: event.ParentLotSerial,
          quantity: 1,
          sign: 0,
          field: 'Product',
        },
        ...children,
      ];
    }
  }
}

export class EventNormalisationError extends Error {
  constructor(
    readonly index: number,
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export type NormalisedEvent = ReturnType<typeof normaliseEvent>;

/** One validated payload event → the internal shape. Throws EventNormalisationError on a bad time. */
export function normaliseEvent(event: EventPayload, index: number) {
  const time = parseEventTime(event.EventTime, event.EventTimeZone);
  if (!time.ok) throw new EventNormalisationError(index, time.field, time.message);
  return {
    index,
    externalId: event.Id,
    type: capitalise(event.$type),
    // UTC, ISO 8601.
    eventTime: time.utc.toISOString(),
    eventTimeZone: event.EventTimeZone,
    location: event.Location,
    sourceLocation: event.SourceLocation ?? null,
    destinationLocation: event.DestinationLocation ?? null,
    purchaseOrder: event.PurchaseOrder ?? null,
    invoiceNumber: event.InvoiceNumber ?? null,
    referenceDocumentId: event.ReferenceDocumentId ?? null,
    documentIds: event.DocumentIds && event.DocumentIds.length ? event.DocumentIds : null,
    lines: linesOfEvent(event),
    // An EPCIS event records what happened: a consuming line beyond the available quantity is stored
    // (the timeline goes below zero) instead of refusing the batch.
    recorded: event.Epcis !== undefined || event.EpcisOriginal !== undefined,
  };
}
