import type { KnownFrom } from '../../domain/schemas/paired';
import { requiredObject } from '../openapi/schema';
import { LIMITS, withLimits } from '../../domain/schemas/limits';

/** Query values arrive as strings. */
const lotQuery = {
  ProductId: {
    type: 'string',
    minLength: 1,
    maxLength: LIMITS.idLength,
    description: 'Your product: the service id returned at creation, or your own product Id.',
    example: 'SALMON-WHOLE',
  },
  LotSerial: {
    type: 'string',
    minLength: 1,
    maxLength: LIMITS.idLength,
    description: 'The lot or serial number.',
    example: 'LOT-2024-001',
  },
} as const;

export const MAX_TRACE_DEPTH = 1000;
export const DEFAULT_TRACE_DEPTH = 100;

export const traceQuery = withLimits({
  type: 'object',
  required: ['ProductId', 'LotSerial'],
  properties: {
    ...lotQuery,
    Direction: {
      type: 'string',
      enum: ['backward', 'forward', 'both'],
      description:
        'backward: where the lot came from; forward: where it and everything made from it went; both (the default).',
    },
    AsOf: {
      type: 'string',
      format: 'date-time',
      description: 'Only events at or before this instant.',
      example: '2024-03-01T15:00:00Z',
    },
    MaxDepth: {
      type: 'string',
      pattern: '^0*([1-9][0-9]{0,2}|1000)$', // 1 to MAX_TRACE_DEPTH
      description: `At most this many edges from the lot (1 to ${MAX_TRACE_DEPTH}, default ${DEFAULT_TRACE_DEPTH}).`,
      example: '10',
    },
  },
} as const);

export type TraceQuery = KnownFrom<typeof traceQuery>;

export const recallQuery = withLimits({
  type: 'object',
  required: ['ProductId', 'LotSerial'],
  properties: lotQuery,
} as const);

export const fsmaQuery = withLimits({
  type: 'object',
  required: ['ProductId', 'LotSerial'],
  properties: {
    ...traceQuery.properties,
    format: { type: 'string', enum: ['csv', 'xlsx'], description: 'csv (the default) or xlsx.' },
  },
} as const);

export const nodeEventsQuery = withLimits({
  type: 'object',
  required: ['ProductId', 'LotSerial', 'NodeId'],
  properties: {
    ...traceQuery.properties,
    NodeId: {
      type: 'string',
      minLength: 1,
      maxLength: 1000,
      description: 'A node id of the trace of ProductId and LotSerial (its `nodes[].id`).',
    },
  },
} as const);

const nullableNumber = { type: ['number', 'null'] } as const;
const nullableTime = { type: ['string', 'null'], description: 'UTC with a trailing Z.' } as const;

const productRef = requiredObject({
  id: { type: 'string', description: 'The owner’s product id (its own Id, else the service id).' },
  name: { type: 'string' },
  gtin: { type: ['string', 'null'] },
  unit: { type: 'string', description: 'Unit of measure of every quantity of this product (UN/ECE Rec 20 code).' },
});

const locationRef = requiredObject({
  id: { type: 'string', description: 'The owner’s location id (its own id, else the service id).' },
  name: { type: 'string' },
  gln: { type: ['string', 'null'] },
  tradePartner: {
    type: 'string',
    description: 'Name of the organisation at this location, as its owner recorded it.',
  },
  external: { type: 'boolean', description: 'A trade partner’s location (not SELF) as the owner recorded it.' },
});

const traceNode = requiredObject({
  id: { type: 'string', description: 'Opaque id of the node, used by edges.' },
  product: productRef,
  lotSerial: { type: 'string' },
  account: { type: 'string', description: 'Name of the account whose records these are.' },
  location: locationRef,
  visibility: {
    type: 'string',
    enum: ['own', 'shared', 'shipment'],
    description:
      'own: your records; shared: another account’s records up to the moment the lot moved toward you (Open product); ' +
      'shipment: another account’s Restricted product: only the shipment that reached you is shown.',
  },
  quantityIn: { ...nullableNumber, description: 'Received, commissioned or produced here (null where not visible).' },
  quantityOut: { ...nullableNumber, description: 'Shipped, consumed or decommissioned here.' },
  quantityOnHand: {
    ...nullableNumber,
    description: 'Balance of the inventory timeline at AsOf (now by default); yours only.',
  },
  firstEvent: { ...nullableTime, description: 'The first of the events eventCount counts; UTC.' },
  lastEvent: { ...nullableTime, description: 'The last of them; UTC.' },
  eventCount: {
    type: 'integer',
    description:
      'Events you may see that changed this lot’s quantity (commission, receive, ship, transform, decommission) or containment here; observations are not counted.',
  },
});

const traceEdge = requiredObject({
  from: { type: 'string' },
  to: { type: 'string' },
  eventId: { type: 'string', description: 'Service id of the event.' },
  type: { type: 'string', enum: ['Ship', 'Transform', 'Aggregation', 'Disaggregation'] },
  eventTime: { type: 'string', description: 'UTC with a trailing Z.' },
  quantity: {
    type: 'number',
    description: 'Shipped quantity; for a transform the input consumed; for (dis)aggregation the child.',
  },
});

export const traceResponse = requiredObject({
  root: requiredObject({
    productId: { type: 'string' },
    lotSerial: { type: 'string' },
    nodes: {
      type: 'array',
      items: { type: 'string' },
      description: 'The nodes of the lot itself, one per location.',
    },
  }),
  nodes: { type: 'array', items: traceNode },
  edges: { type: 'array', items: traceEdge },
});

export const recallResponse = requiredObject({
  root: traceResponse.properties.root,
  asOf: { type: 'string', description: 'The instant the quantities are taken at, UTC.' },
  lots: {
    type: 'array',
    description: 'The lot and every lot derived from it (transforms, aggregations), in your records.',
    items: requiredObject({ product: productRef, lotSerial: { type: 'string' } }),
  },
  holdings: {
    type: 'array',
    description: 'Every location of yours that still holds any of these lots.',
    items: requiredObject({
      product: productRef,
      lotSerial: { type: 'string' },
      location: locationRef,
      quantityOnHand: { type: 'number' },
      unit: { type: 'string' },
    }),
  },
  shipments: {
    type: 'array',
    description: 'Every shipment of these lots to a trade partner: who to send the recall notice to.',
    items: requiredObject({
      product: productRef,
      lotSerial: { type: 'string' },
      from: locationRef,
      to: locationRef,
      quantity: { type: 'number' },
      unit: { type: 'string' },
      eventId: { type: 'string' },
      eventTime: { type: 'string' },
    }),
  },
});

export const nodeEventsResponse = requiredObject({
  node: traceNode,
  events: {
    type: 'array',
    description:
      'Every event of this lot at this location that you may see, oldest first (one entry per line of the lot).',
    items: requiredObject({
      eventId: { type: 'string' },
      type: { type: 'string', example: 'Receive' },
      role: {
        type: 'string',
        enum: ['instance', 'input', 'output', 'parent', 'child'],
        description: 'What the lot was in the event.',
      },
      eventTime: { type: 'string', description: 'UTC with a trailing Z.' },
      quantity: { type: 'number' },
      unit: { type: 'string' },
      from: { type: ['string', 'null'], description: 'A receive’s ship-from location, when sent.' },
      to: { type: ['string', 'null'], description: 'A ship’s destination.' },
      documents: {
        type: 'array',
        items: requiredObject({ type: { type: 'string' }, number: { type: 'string' } }),
      },
    }),
  },
});
