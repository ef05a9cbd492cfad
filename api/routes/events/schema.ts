/**
 * Request schemas of the event endpoints (SPEC.md "Event: batch-style shape", DESIGN.md "Events").
 * Written to be read: they become the OpenAPI document. They are the list of what an event may carry:
 * every property SPEC.md shows, and nothing else (a property not listed is refused, naming the field).
 */
import { batchErrorSchema, type BatchError } from '../../../domain/batch-errors';
import { EVENT_TYPE_NAMES, EVENT_TYPES, parseEventTime, type EventPayload } from '../../../domain/events';
import { locationIdOf } from '../../../domain/master-data';
import { pairedWith } from '../../middleware/validate';
import { LIMITS, quantity, withLimits } from '../../limits';
import { closed } from '../../unknown-fields';
import { address, contactProperties, vessel } from '../locations/schema';

const text = { type: 'string', minLength: 1 } as const;
/** Ids, lots and serials: the caller's keys. */
const id = { type: 'string', minLength: 1, maxLength: LIMITS.idLength } as const;
const optionalText = { type: ['string', 'null'] } as const;

/** One entry of an event's CustomProperties: both event shapes (batch-style and URN JSON) take the same. */
export const customPropertyEntry = {
  type: 'object',
  properties: {
    Name: optionalText,
    Namespace: optionalText,
    Value: optionalText,
    PropertyLocation: optionalText,
  },
} as const;

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
    Gln: { type: 'string' },
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
export const productInstance = {
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
    PurchaseOrder: optionalText,
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
      items: {
        type: 'object',
        properties: {
          Type: optionalText,
          Standard: optionalText,
          Agency: optionalText,
          Value: optionalText,
          Identification: optionalText,
          CertificationType: optionalText,
          CertificationStandard: optionalText,
          CertificationAgency: optionalText,
          CertificationValue: optionalText,
          CertificationIdentification: optionalText,
        },
      },
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
 * Closed objects: a property not listed here (or not one of the event's `$type`) is refused (api/unknown-fields.ts).
 * Paired with EventPayload, the pipeline's type: what each `$type` requires is in allOf/if-then, which
 * json-schema-to-ts would have to expand per branch.
 */
export const eventsBody = pairedWith<{ Events: EventPayload[] }>()(eventsOf(event));

/**
 * What the event schema cannot say: times that exist in their zone, locations that name an id. The
 * request's refusal (400, nothing stored, sync and async alike) is owned here, run by the validate
 * middleware. The pipeline reads the same fields of a stored batch with the same domain functions
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
    for (const field of ['Location', 'SourceLocation', 'DestinationLocation'] as const) {
      const ref = event[field];
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

/** `Idempotency-Key` (optional): a replay with the same key answers the same batch; blank is no key. */
export const idempotencyHeaders = {
  type: 'object',
  properties: {
    'Idempotency-Key': {
      type: 'string',
      pattern: '^[\\x21-\\x7e]{1,200}$',
      description:
        'Optional, 1 to 200 visible ASCII characters. The same key with the same body again returns the first outcome and stores nothing new; with another body it is a 422.',
      example: 'erp-export-2024-03-01-001',
    },
  },
} as const;

/** A batch's path id: anything but a UUID names no batch (404, as an unknown one). */
export const batchIdParams = {
  type: 'object',
  required: ['batchId'],
  properties: {
    batchId: {
      type: 'string',
      pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
      description: 'The batchId of the 202 answer.',
    },
  },
} as const;

/** The GDST KDE warnings of one event (`domain/gdst.ts`), on the events routes' and POST /Integration/JSON's answers alike. */
export const gdstWarningsSchema = {
  type: 'array',
  description:
    'GDST Key Data Elements the event lacks where GDST asks for them (a wild-catch commission’s vessel, catch area, gear and ' +
    'fishing authorisation; every certificate’s type and number). Only present when there are some; the event was stored all the same.',
  items: {
    type: 'object',
    required: ['code', 'field', 'message'],
    properties: { code: { enum: ['MissingGdstKde'] }, field: { type: 'string' }, message: { type: 'string' } },
  },
} as const;

const eventResult = {
  type: 'object',
  required: ['id', 'externalEventId', 'type', 'status', 'eventDate', 'productInstances', 'documentsNotAttached'],
  properties: {
    id: { type: 'string', description: 'Service id of the event (its URN is urn:uuid:<id>).' },
    externalEventId: { type: 'string', description: 'The Id sent.' },
    type: { enum: EVENT_TYPES },
    status: { enum: ['Created'] },
    eventDate: { type: 'string', description: 'UTC with a +00:00 offset.', example: '2024-03-01T15:00:00+00:00' },
    productInstances: {
      type: 'array',
      description: 'The lines as stored: transform inputs then outputs; aggregation children.',
      items: {
        type: 'object',
        required: ['productId', 'lotSerial', 'quantity'],
        properties: {
          productId: { type: 'string', description: "The caller's product Id." },
          lotSerial: { type: 'string' },
          quantity: { type: 'number' },
        },
      },
    },
    documentsNotAttached: {
      type: ['array', 'null'],
      description: 'Null when every DocumentIds entry was attached or none was sent.',
      items: {
        type: 'object',
        required: ['documentId', 'reason'],
        properties: { documentId: { type: 'string' }, reason: { enum: ['DocumentNotFound'] } },
      },
    },
    warnings: gdstWarningsSchema,
  },
} as const;

export const eventsCreatedResponse = {
  type: 'object',
  required: ['message', 'batchId', 'result'],
  properties: {
    message: { type: 'string' },
    batchId: {
      type: 'string',
      description: 'The batch the events were stored in (GET /Integration/Events/async/{batchId} shows it again).',
    },
    result: { type: 'array', items: eventResult, description: 'One entry per event, in request order.' },
  },
} as const;

export const batchRejectedResponse = {
  type: 'object',
  required: ['message', 'result', 'errors'],
  description: 'The batch was rejected as a whole: nothing was stored.',
  properties: {
    message: { type: 'string' },
    result: { type: 'array', maxItems: 0 },
    errors: { type: 'array', items: batchErrorSchema },
  },
} as const;

export const batchAcceptedResponse = {
  type: 'object',
  required: ['message', 'batchId', 'status', 'statusUrl'],
  properties: {
    message: { type: 'string' },
    batchId: { type: 'string' },
    status: { enum: ['Accepted'] },
    statusUrl: {
      type: 'string',
      description: 'GET it for the outcome.',
      example: '/Integration/Events/async/0b7f1f5e-1111-4222-8333-944444444444',
    },
  },
} as const;

/** 503: the batch is stored but its workflow could not be started; the reconciler starts it. */
export const batchNotStartedResponse = {
  type: 'object',
  allOf: [{ $ref: '#/components/schemas/Problem' }],
  description: 'The batch is stored; its processing starts automatically. Follow statusUrl.',
  required: ['batchId', 'statusUrl'],
  properties: { batchId: { type: 'string' }, statusUrl: { type: 'string' } },
} as const;

/** The newest retry of a failed batch (POST /Integration/Batches/{id}/retry), or null. */
export const retryRef = {
  type: ['object', 'null'],
  required: ['batchId', 'status'],
  description:
    'The newest retry of this batch (POST /Integration/Batches/{id}/retry) and where it is; null when it was never retried.',
  properties: { batchId: { type: 'string' }, status: { enum: ['Accepted', 'Running', 'Completed', 'Failed'] } },
} as const;

export const batchStatusResponse = {
  type: 'object',
  required: ['batchId', 'status', 'submittedAt', 'completedAt', 'result', 'errors', 'retriedBy'],
  properties: {
    batchId: { type: 'string' },
    status: { enum: ['Accepted', 'Running', 'Completed', 'Failed'] },
    message: { type: 'string', description: 'What the status means, and what (if anything) the caller should do.' },
    submittedAt: { type: 'string' },
    completedAt: { type: ['string', 'null'] },
    result: {
      type: ['array', 'null'],
      items: eventResult,
      description: 'When Completed: exactly the result of the sync endpoint.',
    },
    errors: { type: ['array', 'null'], items: batchErrorSchema, description: 'When Failed: why.' },
    retriedBy: retryRef,
  },
} as const;
