import { randomUUID } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkerOptions } from '@temporalio/worker';
import { indexedValueTypeOf, SEARCH_ATTRIBUTES } from '../../platform/search-attributes';

/**
 * A time-skipping test server of this test file's own (test/helpers/workflow-setup.ts installed it): while
 * every workflow waits on a timer, the server's clock jumps to the next one, so 72 hours of retries take
 * seconds. Stopped once the describe block it is called in is done.
 */
export function timeSkippingEnvironment(): () => TestWorkflowEnvironment {
  let env: TestWorkflowEnvironment | undefined;
  beforeAll(async () => {
    env = await TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: { type: 'existing-path', path: process.env.TEMPORAL_TEST_SERVER_PATH! } },
    });
    // The workflows' own search attributes (BatchStatus ...): the test server lists none, but takes them.
    await env.connection.operatorService.addSearchAttributes({
      namespace: env.namespace ?? 'default',
      searchAttributes: Object.fromEntries(SEARCH_ATTRIBUTES.map(({ name, type }) => [name, indexedValueTypeOf(type)])),
    });
  });
  afterAll(() => env?.teardown());
  return () => env!;
}

/**
 * A worker on a task queue of its own with the given (stub) activities and the workflow bundle built once
 * for the project (WORKFLOW_BUNDLE): `run` runs `body` with it polling, then drains it.
 */
export async function withStubWorker<R>(
  env: TestWorkflowEnvironment,
  activities: WorkerOptions['activities'],
  body: (taskQueue: string) => Promise<R>,
): Promise<R> {
  const taskQueue = `test-${randomUUID()}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE! },
    activities,
  });
  return worker.runUntil(body(taskQueue));
}
