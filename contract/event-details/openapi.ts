import { operation } from '../openapi/operation';
import { pageBodySchema, pageQueryErrorResponse, onePageExample } from '../paging';
import { eventDetailRecord, eventDetailsHeaders, eventDetailsQuery } from './schema';

const row = {
  id: '1042',
  eventId: '0b7f1f5e-1111-4222-8333-944444444444',
  externalEventId: 'SHIP-2024-0042',
  eventType: 'Ship',
  productName: 'Atlantic salmon, whole',
  externalProductId: 'SALMON-WHOLE',
  lotSerial: 'LOT-2024-001',
  quantity: 50,
  locationName: 'Bergen plant',
  externalLocationId: 'PLANT-BERGEN',
  companyName: 'Nordic Seafood AS',
  eventDate: '2024-03-02T08:00:00+00:00',
};

export const eventDetailsOperations = [
  operation({
    method: 'get',
    path: '/epcis/Events/details',
    summary: 'Events of a lot',
    description:
      'The events of a lot the caller may see, one row per product line of the lot, newest first by default. Visible: the caller’s own ' +
      'events; when another account ships the lot to a location whose GLN is one of the caller’s, that account’s events of the lot up to ' +
      'and including the shipment (product SharingPolicy Open) or the ship event alone (Restricted). A transform’s output lot shows ' +
      'events from the transform on.',
    tags: ['Queries'],
    query: eventDetailsQuery,
    headers: eventDetailsHeaders,
    responses: {
      200: {
        description: 'One page of rows.',
        schema: pageBodySchema(eventDetailRecord, 'Event-detail rows of the lot, in the requested order.'),
        example: onePageExample(row),
      },
      400: pageQueryErrorResponse,
    },
  }),
];
