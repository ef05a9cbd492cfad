import { operation } from '../openapi/operation';

export const supportOperations = [
  operation({
    method: 'get',
    path: '/support',
    summary: 'The support page',
    description:
      'Sign in with an API key (a support key sees every account), see failed batches and batches stuck in Accepted or Running, ' +
      'open one for every error, retry it and follow the retry, or (a support key) abandon it with a reason. Failed batches whose events another ' +
      'batch stored since (replaced) and abandoned ones are listed apart, without a retry. The page holds no data itself; it calls /Integration/Batches.',
    tags: ['Docs'],
    public: true,
    responses: { 200: { description: 'The HTML page.', contentType: 'text/html', schema: { type: 'string' } } },
  }),
  operation({
    method: 'get',
    path: '/support/page.js',
    summary: 'The support page’s script',
    description: 'web/support.ts, bundled by the service. Kept for a year when asked for with the `v` the page names.',
    tags: ['Docs'],
    public: true,
    responses: { 200: { description: 'The script.', contentType: 'text/javascript', schema: { type: 'string' } } },
  }),
];
