/** Query of GET /Integration/Inventory; the rules JSON Schema cannot say are in the router. */
import { listOf, requiredObject } from '../openapi/schema';
import { LIMITS, withLimits } from '../../domain/schemas/limits';
import { nullableText } from '../../domain/schemas/text';

/** Ids in a URL: a hundred of them stay well inside the 16 KB a request head may take. */
const id = { type: 'string', maxLength: LIMITS.idLength } as const;
const repeatable = (description: string) =>
  ({
    description,
    anyOf: [id, { type: 'array', maxItems: 100, items: id }],
  }) as const;

export const inventoryQuery = withLimits({
  type: 'object',
  properties: {
    ProductIds: repeatable(
      'A product id: the service id returned at creation, or your own product Id. Repeat the parameter for several (?ProductIds=a&ProductIds=b).',
    ),
    LocationIds: repeatable(
      'A location id: the service id returned at creation, or your own location id. Repeat the parameter for several.',
    ),
    AsOf: {
      type: 'string',
      format: 'date-time',
      description:
        'Only the record that applies at this instant (the latest at or before it) per product, lot and location. A leap second (23:59:60) is ' +
        'refused with a 400 naming AsOf: it is not a time the service can compare with.',
      example: '2024-03-01T15:00:00Z',
    },
  },
} as const);

const externalLocationId = {
  type: ['string', 'null'],
  description:
    'Your own id of the location (the id you created it with, as LocationIds accepts it), beside the service id; null when it has none.',
  example: 'PLANT-BERGEN',
} as const;

const inventoryEntry = requiredObject({
  locationId: { type: 'string', description: 'Service id of the location.' },
  externalLocationId,
  locationName: { type: 'string' },
  quantityAvailable: {
    type: 'number',
    description:
      'What another event at this point of the timeline can still consume without making any later balance negative.',
  },
  eventDate: {
    type: 'string',
    description: 'Event time of the record, UTC with a trailing Z.',
    example: '2024-03-01T15:00:00Z',
  },
});

export const inventoryResponse = requiredObject({
  products: listOf(['productId', 'externalProductId', 'productName', 'lots'], {
    productId: { type: 'string', description: 'Service id of the product.' },
    externalProductId: nullableText(
      'Your own id of the product (the Id you created it with, as ProductIds accepts it), beside the service id; null when it has none.',
      'SALMON-WHOLE',
    ),
    productName: { type: 'string' },
    lots: listOf(['lotSerial', 'inventory'], {
      lotSerial: { type: 'string' },
      inventory: { type: 'array', items: inventoryEntry },
      negative: {
        type: 'array',
        description:
          'Present only when the lot reads negative somewhere: each location where its timeline goes below zero, with the lowest balance. ' +
          'An event that added the lot there is missing (EPCIS captures record an overdraw instead of refusing it); it clears once that event arrives.',
        items: requiredObject({
          locationId: { type: 'string', description: 'Service id of the location.' },
          externalLocationId,
          locationName: { type: 'string' },
          quantity: { type: 'number', example: -20 },
        }),
      },
    }),
  }),
});
