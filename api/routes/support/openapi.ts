import { operation } from '../../openapi/operation';

export const supportOperations = [
  operation({
    method: 'get',
    path: '/support',
    summary: 'The support page',
    description:
      'Sign in with an API key (a support key sees every account), see failed batches and batches stuck in Accepted or Running, ' +
      'open one for every error, retry it and follow the retry. The page holds no data itself; it calls /Integration/Batches.',
    tags: ['Docs'],
    public: true,
    responses: { 200: { description: 'The HTML page.', contentType: 'text/html', schema: { type: 'string' } } },
  }),
];
