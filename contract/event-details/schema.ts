import { requiredObject } from '../openapi/schema';
import { pageQuerySchema } from '../paging';
import { withLimits } from '../../domain/schemas/limits';
import { nullableText } from '../../domain/schemas/text';

/** SPEC.md marks `accept` required on GET /epcis/Events/details (a blank one is absent). */
export const eventDetailsHeaders = requiredObject({
  accept: { type: 'string', minLength: 1, description: 'Required: application/json.', example: 'application/json' },
});

/** Query of GET /epcis/Events/details. */
export const eventDetailsQuery = withLimits({
  type: 'object',
  required: ['LotSerial'],
  properties: {
    LotSerial: {
      type: 'string',
      minLength: 1,
      description: 'The lot or serial number whose events to list.',
      example: 'LOT-2024-001',
    },
    PurchaseOrder: { type: 'string', description: 'Only events carrying this purchase order.' },
    ...pageQuerySchema.properties,
    SortBy: {
      type: 'string',
      // db/queries/event-details.ts's SORTS: the route hands the value on as its SortBy, so tsc refuses one it lacks.
      enum: ['eventDate', '-eventDate', 'eventType', 'productName'],
      description: 'eventDate (oldest first), -eventDate (newest first, the default), eventType, or productName.',
    },
  },
} as const);

export const eventDetailRecord = requiredObject({
  id: { type: 'string', description: 'Id of this row: one product line of an event.' },
  eventId: { type: 'string', description: 'Service id of the event.' },
  externalEventId: nullableText(
    'Your own Id of the event, as you sent it, beside the service id; null on another account’s rows (its ids are its own).',
    'SHIP-2024-0042',
  ),
  eventType: { type: 'string', example: 'Ship' },
  productName: { type: 'string' },
  externalProductId: nullableText(
    'Your own id of the product; null on another account’s rows (its ids are its own).',
    'COD-WHOLE',
  ),
  lotSerial: { type: 'string' },
  quantity: { type: 'number' },
  locationName: { type: 'string', description: 'Where the event took place.' },
  externalLocationId: nullableText(
    'Your own id of that location; null on another account’s rows (its ids are its own).',
    'PLANT-BERGEN',
  ),
  companyName: { type: 'string', description: 'Trade partner owning that location.' },
  eventDate: { type: 'string', description: 'UTC with a +00:00 offset.', example: '2024-03-01T15:00:00+00:00' },
});
