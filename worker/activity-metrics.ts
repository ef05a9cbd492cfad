import type { ActivityInboundCallsInterceptor, ActivityInterceptorsFactory } from '@temporalio/worker';
import { activityDuration } from '../runtime/metrics';

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
