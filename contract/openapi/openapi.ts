import { operation } from './operation';

export const openApiOperations = [
  operation({
    method: 'get',
    path: '/openapi.json',
    summary: 'This OpenAPI 3.1 document',
    description: 'Built from the same JSON Schemas the service validates requests with.',
    tags: ['Docs'],
    public: true,
    responses: {
      200: {
        description: 'The OpenAPI document.',
        schema: {
          type: 'object',
          required: ['openapi', 'info', 'paths'],
          properties: { openapi: { type: 'string', example: '3.1.0' } },
        },
      },
    },
  }),
];
