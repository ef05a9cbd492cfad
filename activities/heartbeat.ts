import { Context } from '@temporalio/activity';

/**
 * Heartbeats while the step runs, so that when a worker dies mid-step the server notices within the
 * profile's heartbeatTimeout and retries elsewhere, instead of waiting out the whole startToCloseTimeout.
 * A local activity has no heartbeat (its workflow task's timeout plays that part): it runs the step alone.
 */
export function withHeartbeat<A extends unknown[], R>(
  step: (...args: A) => Promise<R>,
  everyMs = 1000,
): (...args: A) => Promise<R> {
  return async (...args: A) => {
    let context: Context;
    try {
      context = Context.current();
    } catch {
      return step(...args); // called outside an activity (a test building activities by hand)
    }
    if (context.info.isLocal) return step(...args);
    const timer = setInterval(() => context.heartbeat(), everyMs);
    try {
      return await step(...args);
    } finally {
      clearInterval(timer);
    }
  };
}
