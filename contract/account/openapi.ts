import { operation } from '../openapi/operation';
import { accountResponse } from './schema';

export const accountOperations = [
  operation({
    method: 'get',
    path: '/Integration/Account',
    summary: 'The account the API key belongs to',
    description: 'A cheap way for an integrator to check a key: 200 with the account, 401 when the key is not valid.',
    tags: ['Account'],
    responses: {
      200: {
        description: 'The account of the presented key.',
        schema: accountResponse,
        example: { id: '6f0c1f9e-3c39-4e52-9d55-1b7f5c2a9e41', name: 'ACME', createdTime: '2024-03-01T15:00:00.000Z' },
      },
    },
  }),
];
