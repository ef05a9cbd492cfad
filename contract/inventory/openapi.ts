import { operation } from '../openapi/operation';
import { inventoryQuery, inventoryResponse } from './schema';

const example = {
  products: [
    {
      productId: '3c1d9e7a-2b4f-4a8e-9d61-7f0e5b2c8a93',
      externalProductId: 'SALMON-WHOLE',
      productName: 'Atlantic salmon, whole',
      lots: [
        {
          lotSerial: 'LOT-2024-001',
          inventory: [
            {
              locationId: '8f2e4d6c-1a3b-4c5d-9e7f-0a1b2c3d4e5f',
              externalLocationId: 'PLANT-BERGEN',
              locationName: 'Bergen plant',
              quantityAvailable: 50,
              eventDate: '2024-03-01T08:00:00Z',
            },
            {
              locationId: '8f2e4d6c-1a3b-4c5d-9e7f-0a1b2c3d4e5f',
              externalLocationId: 'PLANT-BERGEN',
              locationName: 'Bergen plant',
              quantityAvailable: 50,
              eventDate: '2024-03-02T08:00:00Z',
            },
            {
              locationId: '8f2e4d6c-1a3b-4c5d-9e7f-0a1b2c3d4e5f',
              externalLocationId: 'PLANT-BERGEN',
              locationName: 'Bergen plant',
              quantityAvailable: 150,
              eventDate: '2024-03-03T08:00:00Z',
            },
          ],
        },
      ],
    },
  ],
};

export const inventoryOperations = [
  operation({
    method: 'get',
    path: '/Integration/Inventory',
    summary: 'Inventory per product, lot and location',
    description:
      'The reconstructed inventory timeline: one entry per inventory record, oldest first within each lot. At least one of ProductIds ' +
      'and LocationIds is required; with both, only records matching both. `quantityAvailable` is what another event at that point of ' +
      'the timeline can still consume (a 50-unit historical ship between records of 100 and 200 leaves 50 and 150). Products and ' +
      'locations are named by their service ids (`productId`, `locationId`) and, beside them, by your own ids (`externalProductId`, ' +
      '`externalLocationId`), the ones you sent.',
    tags: ['Queries'],
    query: inventoryQuery,
    responses: {
      200: {
        description:
          'The records, grouped by product and lot. With `Accept: text/plain` the same JSON comes as text/plain.',
        schema: inventoryResponse,
        contentType: ['application/json', 'text/plain'],
        example,
      },
    },
  }),
];
