import { PROBLEM_JSON, problemExample } from '../openapi/components';
import { taggedOperation } from '../openapi/operation';
import { healthResponse, notReadyProblem, readyResponse } from './schema';

const operation = taggedOperation('Health');

export const healthOperations = [
  operation({
    method: 'get',
    path: '/healthz',
    summary: 'Liveness: the API process answers',
    public: true,
    responses: { 200: { description: 'The process is up.', schema: healthResponse, example: { status: 'ok' } } },
  }),
  operation({
    method: 'get',
    path: '/readyz',
    summary: 'Readiness: PostgreSQL and Temporal are reachable and a worker polls',
    public: true,
    responses: {
      200: {
        description: 'Both dependencies answer and a worker polls the task queue.',
        schema: readyResponse,
        example: {
          status: 'ok',
          checks: { database: 'ok', temporal: 'ok', worker: 'ok', interactiveWorker: 'ok', deliveries: 'ok' },
        },
      },
      503: {
        description: 'A dependency does not answer, or no worker polls; `checks` says which.',
        contentType: PROBLEM_JSON,
        schema: notReadyProblem,
        example: problemExample('not-ready', {
          checks: { database: 'ok', temporal: 'ok', worker: 'missing', interactiveWorker: 'ok', deliveries: 'missing' },
        }),
      },
    },
  }),
];
