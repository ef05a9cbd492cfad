/** Response bodies of the health routes (they take no input). */
import { allRequired, closedObject } from '../openapi/schema';

export const healthResponse = closedObject({ status: { type: 'string', enum: ['ok'] } });

const checks = {
  type: 'object',
  description:
    '`ok`, the error met while checking that dependency, or `no answer within 3000 ms` (/readyz answers within 3 s).',
  ...allRequired({
    database: { type: 'string' },
    temporal: { type: 'string' },
    worker: {
      type: 'string',
      description:
        '`missing` when no worker of the task queue (bulk or all, WORKER_ROLE) is alive: none has sent Temporal a heartbeat for 20 s (workers send one every 5 s), or, where the server keeps no worker heartbeats, none has polled the task queue for 75 s. Async batches, imports and deliveries would wait.',
    },
    interactiveWorker: {
      type: 'string',
      description:
        "`missing` when no worker process of the sync task queue (interactive or all, WORKER_ROLE) is alive, by the same rule; the API's own worker does not count. Small sync batches the API does not run itself would wait.",
    },
    deliveries: {
      type: 'string',
      description:
        '`missing` when no worker process of the deliveries task queue (`<TASK_QUEUE>-deliveries`: bulk or all, WORKER_ROLE) is alive, by the same rule: a worker of a release before that queue polls only the task queue, and webhooks would wait.',
    },
  }),
} as const;

export const readyResponse = closedObject({ status: { type: 'string', enum: ['ok'] }, checks });

/** The 503 problem of /readyz: a problem body that also says which check failed. */
export const notReadyProblem = {
  allOf: [{ $ref: '#/components/schemas/Problem' }],
  ...allRequired({ checks }),
} as const;
