/**
 * POST /Integration/JSON (SPEC.md "Event: URN-based shape"): the request schema the route validates
 * with and the response schemas, written to be read: they become the OpenAPI document. The request
 * schema lists every property SPEC.md shows, and nothing else: a property not listed is refused.
 */
import { allRequired, requiredObject } from '../openapi/schema';
import { JSON_EVENT_TYPES, type JsonEvent } from '../../domain/json-events';
import { pairedWith } from '../../domain/schemas/paired';
import { customPropertyEntry, eventsOf } from '../../domain/schemas/events';
import { gdstWarningsSchema } from '../events/schema';
import { LIMITS, quantity } from '../../domain/schemas/limits';

const text = { type: 'string', minLength: 1 } as const;
const optionalText = { type: ['string', 'null'] } as const;
/** An id or a code the service looks records up by: bounded as ids are (a new URN is checked in domain/json-events.ts). */
const optionalCode = { ...optionalText, maxLength: LIMITS.idLength } as const;
const urn = (what: string) => ({
  ...text,
  description: `URN of the ${what}: a URN the account knows is reused (\`Skipped\`); a new one is created from the inline fields (\`Created\`) and keeps this URN.`,
});

const geoCoordinates = requiredObject({
  Latitude: { type: 'number', minimum: -90, maximum: 90 },
  Longitude: { type: 'number', minimum: -180, maximum: 180 },
});

const address = {
  type: ['object', 'null'],
  properties: {
    City: optionalText,
    State: optionalText,
    Country: optionalText,
    AddressLine1: optionalText,
    AddressLine2: optionalText,
    PostalCode: optionalText,
    GeoCoordinates: geoCoordinates,
  },
} as const;

const location = {
  type: 'object',
  description: 'Where the event happened. Name (and a trade partner) are needed only when Urn is new to the account.',
  required: ['Urn'],
  properties: {
    Urn: urn('location'),
    TradePartnerUrn: { ...optionalText, description: 'Owner of a new location; defaults to the event’s TradePartner.' },
    Name: text,
    Gln: optionalCode,
    Address: address,
  },
} as const;

const tradePartner = {
  type: ['object', 'null'],
  description: 'The organization of the event. Name and ConnectionType are needed only when Urn is new to the account.',
  required: ['Urn'],
  properties: {
    Urn: urn('trade partner'),
    TradePartnerId: { ...optionalCode, description: 'The trade partner’s external id when new; defaults to its Urn.' },
    Name: text,
    Pgln: optionalText,
    ConnectionType: { enum: ['SELF', 'SUPPLIER', 'BUYER', 'OTHER'] },
  },
} as const;

const parentProduct = {
  type: 'object',
  description:
    'The product (class) of the instance. Name, SimpleUnitOfMeasurement, SharingPolicy and ProductIdentifierType are needed only when Urn is new to the account.',
  required: ['Urn'],
  properties: {
    Urn: urn('product'),
    Name: text,
    SimpleUnitOfMeasurement: {
      ...text,
      description: 'Unit code or alias (kg, LBR, ...): quantities of the product are in this unit.',
    },
    SharingPolicy: { enum: ['Open', 'Restricted'] },
    ProductIdentifierType: { enum: ['Lot', 'Serial'] },
    UnitQuantity: { type: ['number', 'null'], exclusiveMinimum: 0 },
    UnitDescriptor: { enum: ['Cases', 'Units', 'Totes', 'Pallets', null] },
    Gtin: optionalText,
    ProductMasterData: {
      type: ['array', 'null'],
      items: {
        type: 'object',
        required: ['Name', 'Namespace', 'Value'],
        properties: { Name: text, Namespace: text, Value: { type: 'string' }, ElementId: optionalText },
      },
    },
  },
} as const;

export const jsonProductInstance = {
  type: 'object',
  required: ['Quantity', 'LotSerial', 'ParentProduct'],
  properties: {
    Quantity: quantity('In the product’s SimpleUnitOfMeasurement (a Serial product counts 1 per instance).'),
    LotSerial: { ...text, maxLength: LIMITS.idLength },
    Urn: { ...optionalText, description: 'URN of the lot or serial instance; stored with the event as sent.' },
    UOM: {
      anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }],
      description:
        'The unit of Quantity. A unit code must name the product’s own unit (quantities are never converted); a number is not a unit and is ignored (some producers send one).',
    },
    Gtin: { ...optionalText, description: 'Used as the new product’s GTIN when ParentProduct.Gtin is absent.' },
    ParentProduct: parentProduct,
    TradePartnerName: optionalText,
    IdentifierType: optionalText,
  },
} as const;

const instances = { type: 'array', minItems: 1, items: jsonProductInstance } as const;

const byType = (type: string, properties: Record<string, unknown>) => ({
  if: { type: 'object', properties: { $type: { const: type } }, required: ['$type'] },
  then: requiredObject(properties),
});

export const jsonEvent = {
  type: 'object',
  required: ['$type', 'ExternalEventId', 'Location', 'EventTime'],
  properties: {
    $type: { enum: JSON_EVENT_TYPES, description: 'commission or transform.' },
    ExternalEventId: {
      ...text,
      maxLength: LIMITS.idLength,
      description: 'The caller’s event id; unique in the account: a repeat is rejected (DuplicateEventId).',
    },
    Urn: {
      ...optionalText,
      description:
        'The caller’s event URN; may be empty. Stored with the event; the service’s own is urn:uuid:<event id>.',
    },
    Location: location,
    TradePartner: tradePartner,
    PurchaseOrder: optionalCode,
    InvoiceNumber: optionalText,
    BizStep: {
      ...optionalText,
      description:
        'A business step: a GS1 CBV term (urn:epcglobal:cbv:bizstep:shipping, or the bare word shipping), any other URN (urn:<nid>:<nss>) or an http(s) URI. Kept as sent.',
    },
    Disposition: {
      ...optionalText,
      description:
        'A disposition: a GS1 CBV term (urn:epcglobal:cbv:disp:in_transit, or in_transit), any other URN or an http(s) URI. Kept as sent.',
    },
    ReadPoint: { description: 'Free form; stored as sent.' },
    EventTime: {
      type: 'string',
      description: 'ISO 8601 with an offset (without one it is read in EventTimeZone).',
      example: '2024-03-01T10:00:00-05:00',
    },
    EventTimeZone: { ...optionalText, description: 'UTC offset such as -05:00; defaults to the offset of EventTime.' },
    RecordTime: optionalText,
    CustomProperties: {
      type: ['array', 'null'],
      items: customPropertyEntry,
    },
    CertificationList: {
      type: ['array', 'null'],
      description: 'Kept verbatim with the event (types such as urn:gdst:certType:harvestCoC).',
      items: {
        type: 'object',
        properties: {
          CertificationType: optionalText,
          CertificationStandard: optionalText,
          CertificationAgency: optionalText,
          CertificationValue: optionalText,
          CertificationIdentification: optionalText,
        },
      },
    },
    VesselCatchInformation: { description: 'Free form; stored as sent.' },
  },
  allOf: [
    byType('commission', { ProductInstances: instances }),
    byType('transform', { InputProducts: instances, OutputProducts: instances }),
  ],
} as const;

/**
 * Closed objects: a property not listed here (or not one of the event's `$type`) is refused (domain/schemas/unknown-fields.ts).
 * Paired with JsonEvent, the translation's type (what each `$type` requires is in allOf/if-then).
 */
export const jsonEventsBody = pairedWith<{ Events: JsonEvent[] }>()(eventsOf(jsonEvent));

const status = {
  enum: ['Created', 'Skipped'],
  description: 'Skipped: the URN was known and the entity reused; Created: made from the inline data.',
} as const;
const entity = (extra: Record<string, unknown>) =>
  requiredObject({
    status,
    id: { type: 'string', description: 'Service id.' },
    name: { type: 'string' },
    urn: { type: 'string' },
    ...extra,
  });

const eventEntry = {
  type: 'object',
  required: ['type', 'eventDate', 'productInstances', 'status', 'id', 'name', 'urn'],
  properties: {
    type: { enum: ['Commission', 'Transform'] },
    eventDate: { type: 'string', description: 'UTC with a +00:00 offset.' },
    productInstances: {
      type: 'array',
      description: 'A transform lists its inputs, then its outputs.',
      items: requiredObject({
        quantity: { type: 'number' },
        lotSerial: { type: 'string' },
        status: { const: 'Created' },
        id: { type: 'string', description: 'Service id of the product.' },
        name: { type: 'string', description: 'Product name.' },
        urn: { type: 'string', description: 'The instance Urn as sent, else the product URN.' },
      }),
    },
    status: { const: 'Created' },
    id: { type: 'string', description: 'Service event id.' },
    name: { type: 'string', description: 'The ExternalEventId.' },
    urn: { type: 'string', description: 'urn:uuid:<event id>.' },
    warnings: gdstWarningsSchema,
  },
} as const;

export const commissionResponse = {
  type: 'object',
  description: 'The answer when the batch holds at least one commission.',
  ...allRequired({
    message: { type: 'string' },
    result: requiredObject({
      products: { type: 'array', items: entity({ gtin: { type: ['string', 'null'] } }) },
      locations: {
        type: 'array',
        items: entity({
          gln: { type: ['string', 'null'] },
          geoCoordinates: {
            type: ['object', 'null'],
            ...allRequired({ latitude: { type: 'number' }, longitude: { type: 'number' } }),
          },
        }),
      },
      tradePartners: { type: 'array', items: entity({ pgln: { type: ['string', 'null'] } }) },
      events: { type: 'array', items: eventEntry, description: 'Every event of the batch, in request order.' },
    }),
    errors: { type: 'array', maxItems: 0 },
  }),
} as const;

export const transformResponse = {
  type: 'object',
  description: 'The answer when the batch holds only transforms.',
  required: ['result', 'message', 'errors'],
  properties: {
    result: { const: 'Success' },
    message: { type: 'null' },
    errors: { type: 'array', maxItems: 0 },
    warnings: {
      ...gdstWarningsSchema,
      description: `Every event's warnings, each naming its event (Events[i]). ${gdstWarningsSchema.description}`,
    },
  },
} as const;
