import { Context } from '@temporalio/activity';
import type { ActivityInboundCallsInterceptor, ActivityInterceptorsFactory } from '@temporalio/worker';
import { activityDuration } from '../platform/metrics';

/**
 * Times every activity attempt into traceability_activity_duration_seconds, so the pipeline's
 * activities need no timing code of their own. Counting batches, events and rejections is theirs:
 * only they know what a batch or a rejection is.
 */
export const activityMetrics: ActivityInterceptorsFactory = (ctx) => {
  const inbound: ActivityInboundCallsInterceptor = {
    async execute(input, next) {
      const stop = activityDuration.startTimer({ activity: ctx.info.activityType });
      try {
        const result = await next(input);
        stop({ outcome: 'completed' });
        return result;
      } catch (error) {
        stop({ outcome: 'failed' });
        throw error;
      }
    },
  };
  return { inbound };
};

/**
 * The type of the activity whose code is running, or `outside` outside any: the worker's start-up and
 * migrations, or an API request in an API that runs a worker of its own.
 */
export function currentActivityType(outside = 'worker'): string {
  try {
    return Context.current().info.activityType;
  } catch {
    return outside;
  }
}
