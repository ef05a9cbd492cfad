/**
 * The events' payload (SPEC.md "Event: batch-style shape", DESIGN.md "Events"), whichever entrance
 * brings it: the event endpoints and an import's event rows. Written to be read: the OpenAPI document
 * shows it. It is the list of what an event may carry: every property SPEC.md shows, and nothing else
 * (a property not listed is refused, naming the field).
 */
import type { BatchError } from '../batch-errors';
import { quantityRefused } from '../decimal';
import { glnProblem, gtinProblem } from '../gs1-keys';
import { EVENT_TYPE_NAMES, linesOfEvent, parseEventTime, type EventPayload } from '../events';
import { locationIdOf } from '../master-data';
import { pairedWith } from './paired';
import { LIMITS, quantity, withLimits } from './limits';
import { closed } from './unknown-fields';
import { address, contactProperties, vessel } from './locations';

const text = { type: 'string', minLength: 1 } as const;
/** Ids, lots and serials: the caller's keys. */
const id = { type: 'string', minLength: 1, maxLength: LIMITS.idLength } as const;
const optionalText = { type: ['string', 'null'] } as const;
/** A code the service looks events or locations up by (a purchase order, a GLN): bounded as ids are. */
const optionalCode = { ...optionalText, maxLength: LIMITS.idLength } as const;
/** An object of these properties, each a string or null. */
const optionalTexts = (names: readonly string[]) =>
  ({ type: 'object', properties: Object.fromEntries(names.map((name) => [name, optionalText])) }) as const;

/** One entry of an event's CustomProperties: both event shapes (batch-style and URN JSON) take the same. */
export const customPropertyEntry = optionalTexts(['Name', 'Namespace', 'Value', 'PropertyLocation']);
/** A certificate's fields, as the batch-style shape names them; the URN-based one prefixes them with Certification. */
const CERTIFICATE_FIELDS = ['Type', 'Standard', 'Agency', 'Value', 'Identification'];

const tradePartner = {
  type: 'object',
  description: 'Creates the trade partner when its Id is new to the account, else identifies it.',
  required: ['Id', 'Name', 'ConnectionType'],
  properties: {
    Id: id,
    Name: text,
    ConnectionType: { enum: ['SELF', 'SUPPLIER', 'BUYER', 'OTHER'] },
    Duns: { type: 'string' },
    Pgln: { type: 'string' },
  },
} as const;

const locationDetails = {
  type: 'object',
  description: 'Creates the location when its Id is new to the account; ignored for an existing location.',
  required: ['TradePartner', 'Name'],
  properties: {
    TradePartner: tradePartner,
    Name: text,
    Gln: { type: 'string', maxLength: LIMITS.idLength },
    Extension: { type: 'string' },
    DunsPlus4: { type: 'string' },
    Duns: { type: 'string', pattern: '^(\\d{9}|\\d{13})$' },
    CaptainsName: { type: 'string' },
    Vessel: vessel,
    ContactInformation: { type: 'object', properties: contactProperties },
    Address: address,
  },
} as const;

/** `Id` (or `id`, both appear in SPEC.md) of an existing location, or a new one with its Details. */
export const locationRef = {
  type: 'object',
  properties: { Id: id, id, Details: locationDetails },
  example: { Id: 'LOC-DOCK-1' },
} as const;

const productDetails = {
  type: 'object',
  description: 'Creates the product when its Id is new to the account (GTIN and PLU in capitals inside events).',
  required: ['Name', 'SimpleUnitOfMeasurement', 'SharingPolicy', 'ProductIdentifierType'],
  properties: {
    Name: text,
    SimpleUnitOfMeasurement: text,
    UnitQuantity: { type: 'number', exclusiveMinimum: 0 },
    UnitDescriptor: { enum: ['Cases', 'Units', 'Totes', 'Pallets'] },
    SharingPolicy: { enum: ['Open', 'Restricted'] },
    ProductIdentifierType: { enum: ['Lot', 'Serial'] },
    GTIN: { type: 'string' },
    PLU: { type: 'string' },
    Gtin: { type: 'string' },
    Plu: { type: 'string' },
    MasterData: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'namespace', 'value'],
        properties: { name: text, namespace: text, value: { type: 'string' } },
      },
    },
  },
} as const;

const productRef = { type: 'object', required: ['Id'], properties: { Id: id, Details: productDetails } } as const;

/** `{ Quantity, LotSerial, Product: { Id, Details? } }`; a Serial product counts 1 per instance. */
const productInstance = {
  type: 'object',
  required: ['Quantity', 'LotSerial', 'Product'],
  properties: {
    Quantity: quantity('Decimal quantity in the product unit.'),
    LotSerial: id,
    Product: productRef,
  },
  example: { Quantity: 100, LotSerial: 'LOT-2024-001', Product: { Id: 'SALMON-FILLET' } },
} as const;

const instances = { type: 'array', minItems: 1, items: productInstance } as const;

/** What each `$type` requires beyond the common fields (DESIGN.md's table). */
const byType = (types: readonly string[], required: readonly string[], properties: Record<string, unknown>) => ({
  if: { type: 'object', properties: { $type: { enum: types } }, required: ['$type'] },
  then: { type: 'object', required, properties },
});

export const event = {
  type: 'object',
  required: ['$type', 'Id', 'Location', 'EventTime', 'EventTimeZone'],
  properties: {
    $type: { enum: EVENT_TYPE_NAMES, description: 'The event type, lower case.' },
    Id: { ...id, description: "The caller's event id, unique in the account; echoed as externalEventId." },
    Location: locationRef,
    EventTime: {
      type: 'string',
      description: 'ISO 8601; without an offset it is read in EventTimeZone.',
      example: '2024-03-01T10:00:00',
    },
    EventTimeZone: { type: 'string', description: 'UTC offset such as -05:00.', example: '-05:00' },
    PurchaseOrder: optionalCode,
    InvoiceNumber: optionalText,
    ReferenceDocumentId: optionalText,
    DocumentIds: {
      type: ['array', 'null'],
      items: id,
      description:
        'Ids of uploaded documents to attach; ids not found are reported in documentsNotAttached. A plain string is rejected.',
    },
    CustomProperties: {
      type: 'array',
      description: 'Name/value entries (GDST KDEs such as catchArea, fishingGearTypeCode).',
      items: customPropertyEntry,
    },
    CertificationList: {
      type: 'array',
      description:
        'Certificates: Type (urn:gdst:certType:...), Standard, Agency, Value, Identification; the URN-based spelling (CertificationType, ...) is accepted too.',
      items: optionalTexts([...CERTIFICATE_FIELDS, ...CERTIFICATE_FIELDS.map((name) => `Certification${name}`)]),
    },
  },
  allOf: [
    byType(['commission', 'receive', 'observe', 'decommission'], ['ProductInstances'], { ProductInstances: instances }),
    byType(['receive'], [], { SourceLocation: locationRef }),
    byType(['ship'], ['ProductInstances', 'DestinationLocation'], {
      ProductInstances: instances,
      DestinationLocation: locationRef,
    }),
    byType(['transform'], ['InputProducts', 'OutputProducts'], { InputProducts: instances, OutputProducts: instances }),
    byType(['aggregation', 'disaggregation'], ['ParentLotSerial', 'ChildProductInstances'], {
      ParentLotSerial: id,
      Product: productRef,
      ChildProductInstances: instances,
    }),
  ],
} as const;

/** Batches of up to 1,000 events: the workflow input stays well under Temporal's payload limit. */
export const MAX_EVENTS = 1000;

/** A body `{ Events: [...] }` of 1 to MAX_EVENTS events of the schema `item`. */
export const eventsOf = <S extends object>(item: S) =>
  closed(
    withLimits({
      type: 'object',
      required: ['Events'],
      properties: { Events: { type: 'array', minItems: 1, maxItems: MAX_EVENTS, items: item } },
    } as const),
  );

/**
 * Closed objects: a property not listed here (or not one of the event's `$type`) is refused (domain/schemas/unknown-fields.ts).
 * Paired with EventPayload, the pipeline's type: what each `$type` requires is in allOf/if-then, which
 * json-schema-to-ts would have to expand per branch.
 */
export const eventsBody = pairedWith<{ Events: EventPayload[] }>()(eventsOf(event));

/**
 * What the event schema cannot say: times that exist in their zone, locations that name an id. The
 * request's refusal (400, nothing stored, sync and async alike) is owned here, run by the validate
 * middleware and by an import's check of its rows. The pipeline reads the same fields of a stored batch with the same domain functions
 * (normaliseEvent's parseEventTime, locationIdOf): it converts them, and its refusal is what a batch
 * stored without these checks gets (stored before them, retried). Duplicates, master data and
 * inventory only the pipeline's checks can say: a refused request's other events go through them too
 * (batches/border-check.ts), so its 400 lists every event's problems.
 */
export function eventRuleErrors(events: EventPayload[]): BatchError[] {
  const errors: BatchError[] = [];
  events.forEach((event, index) => {
    const time = parseEventTime(event.EventTime, event.EventTimeZone);
    if (!time.ok)
      errors.push({ index, eventId: event.Id, code: 'InvalidValue', field: time.field, message: time.message });
    for (const line of linesOfEvent(event)) {
      const details = line.product.Details;
      const gtinField = details?.GTIN ? 'GTIN' : 'Gtin';
      const gtin = details?.[gtinField] ? gtinProblem(details[gtinField]) : null;
      if (gtin)
        errors.push({
          index,
          eventId: event.Id,
          code: 'InvalidValue',
          field: `${line.role === 'parent' ? 'Product' : `${line.field}.Product`}.Details.${gtinField}`,
          message: gtin,
        });
      const refused = quantityRefused(line.quantity);
      if (refused)
        errors.push({
          index,
          eventId: event.Id,
          code: 'InvalidValue',
          field: `${line.field}.Quantity`,
          message: refused,
        });
    }
    for (const field of ['Location', 'SourceLocation', 'DestinationLocation'] as const) {
      const ref = event[field];
      const gln = ref?.Details?.Gln ? glnProblem(ref.Details.Gln) : null;
      if (gln)
        errors.push({ index, eventId: event.Id, code: 'InvalidValue', field: `${field}.Details.Gln`, message: gln });
      if (ref && !locationIdOf(ref))
        errors.push({
          index,
          eventId: event.Id,
          code: 'Required',
          field: `${field}.Id`,
          message: `${field}.Id is required.`,
        });
    }
  });
  return errors;
}
