import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import type { NextWebhookDelivery } from '../../db/repositories/webhooks';
import type { DeliverWebhookInput, MarkWebhookFailingInput } from '../../domain/webhook-contracts';
import { deliverWebhooks, wakeSignal } from '../../workflows/deliver-webhooks';
import { deliveriesTaskQueueOf } from '../../domain/task-queues';
import { timeSkippingEnvironment, withStubWorker } from '../helpers/workflow-env';

const HOUR = 3_600_000;
const RETRY_72_HOURS = 259_200;

/** The time the server scheduled this attempt at: the test server's clock, which time skipping moves on. */
const serverNow = (): number => Context.current().info.currentAttemptScheduledTimestampMs;

/** deliverWebhooks with stub activities on the time-skipping test server: its timers and retry schedule. */
describe('deliverWebhooks', () => {
  const env = timeSkippingEnvironment();

  it('retries a delivery its receiver keeps refusing for 72 hours, then marks the endpoint failing and waits', async () => {
    const attempts: number[] = [];
    const failing: MarkWebhookFailingInput[] = [];
    const reads: NextWebhookDelivery[] = [{ kind: 'deliver', deliveryId: 'msg_1' }, { kind: 'wait' }, { kind: 'gone' }];
    const readAt: number[] = [];
    await withStubWorker(
      env(),
      {
        nextWebhookDelivery: async (): Promise<NextWebhookDelivery> => {
          // A local activity's schedule time is the worker's clock: the test server's is the one time skipping moves.
          readAt.push(await env().currentTimeMs());
          return reads.shift()!;
        },
        deliverWebhook: async () => {
          attempts.push(serverNow());
          throw ApplicationFailure.retryable('the receiver answered 503', 'WebhookNotDelivered');
        },
        markWebhookFailing: async (input: MarkWebhookFailingInput) => {
          failing.push(input);
        },
      },
      (taskQueue) =>
        env().client.workflow.execute(deliverWebhooks, {
          taskQueue,
          workflowId: 'webhook-retries',
          args: [{ endpointId: 'endpoint-1', retrySeconds: RETRY_72_HOURS }],
        }),
    );
    // Backoff from 1 s doubling up to an hour (a tenth of the schedule), for 72 h from the first attempt.
    const gaps = attempts.slice(1).map((at, i) => at - attempts[i]);
    expect(gaps.slice(1, 5).map((gap) => Math.round(gap / 1000))).toEqual([1, 2, 4, 8]);
    expect(Math.round(Math.max(...gaps) / 1000)).toBe(3600);
    const span = attempts.at(-1)! - attempts[0];
    expect(span).toBeGreaterThan(70 * HOUR);
    expect(span).toBeLessThanOrEqual(72 * HOUR);
    expect(failing).toEqual([{ endpointId: 'endpoint-1', deliveryId: 'msg_1', reason: 'the receiver answered 503' }]);
    // Failing, it waits: with no wake-up, it reads again an hour later (the next read said the endpoint was gone).
    expect(Math.round((readAt[2] - readAt[1]) / 1000)).toBe(3600);
  });

  it('a wake signal ends the wait at once and the owed delivery goes out', async () => {
    const reads: NextWebhookDelivery[] = [{ kind: 'wait' }, { kind: 'deliver', deliveryId: 'msg_2' }, { kind: 'gone' }];
    const readAt: number[] = [];
    const delivered: string[] = [];
    await withStubWorker(
      env(),
      {
        nextWebhookDelivery: async (): Promise<NextWebhookDelivery> => {
          // A local activity's schedule time is the worker's clock: the test server's is the one time skipping moves.
          readAt.push(await env().currentTimeMs());
          return reads.shift()!;
        },
        deliverWebhook: async ({ deliveryId }: DeliverWebhookInput) => {
          delivered.push(deliveryId);
          return 'Delivered' as const;
        },
        markWebhookFailing: async () => undefined,
      },
      async (taskQueue) => {
        const handle = await env().client.workflow.start(deliverWebhooks, {
          taskQueue,
          workflowId: 'webhook-wake',
          args: [{ endpointId: 'endpoint-2', retrySeconds: RETRY_72_HOURS }],
        });
        // Time stands still until the result is awaited: the workflow waits on its hour until the signal.
        while (readAt.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
        await handle.signal(wakeSignal);
        await handle.result();
      },
    );
    expect(delivered).toEqual(['msg_2']);
    expect(readAt[1] - readAt[0]).toBeLessThan(HOUR);
  });

  it('continues as new on the deliveries task queue when its history grows long, from whichever queue it began on', async () => {
    let delivered = 0;
    const handle = await withStubWorker(
      env(),
      {
        nextWebhookDelivery: async (): Promise<NextWebhookDelivery> => ({
          kind: 'deliver',
          deliveryId: `msg_${delivered}`,
        }),
        deliverWebhook: async () => {
          delivered++;
          return 'Delivered' as const;
        },
        markWebhookFailing: async () => undefined,
      },
      async (taskQueue) => {
        const deliveries = await Worker.create({
          connection: env().nativeConnection,
          taskQueue: deliveriesTaskQueueOf(taskQueue),
          workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE! },
          activities: { nextWebhookDelivery: async (): Promise<NextWebhookDelivery> => ({ kind: 'gone' }) },
        });
        const started = await env().client.workflow.start(deliverWebhooks, {
          taskQueue,
          workflowId: 'webhook-continued',
          args: [{ endpointId: 'endpoint-3', retrySeconds: RETRY_72_HOURS }],
        });
        await deliveries.runUntil(env().client.workflow.getHandle('webhook-continued').result());
        return started;
      },
    );
    const first = await env().client.workflow.getHandle('webhook-continued', handle.firstExecutionRunId).describe();
    const latest = await env().client.workflow.getHandle('webhook-continued').describe();
    expect(first.status.name).toBe('CONTINUED_AS_NEW');
    expect(first.taskQueue).not.toBe(latest.taskQueue);
    expect(latest.taskQueue).toBe(deliveriesTaskQueueOf(first.taskQueue));
    expect(latest.status.name).toBe('COMPLETED');
    expect(delivered).toBeGreaterThan(100);
  });
});
