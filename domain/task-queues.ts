/**
 * The task queues, named from the one configured (TASK_QUEUE): pure, so that workflows can name them too.
 *
 * - `<queue>`: async and larger batches, imports, the reconciler, recalls' follow-ups (the bulk worker);
 * - `<queue>-sync`: batches a caller waits on that are small enough for local steps, so that no other
 *   work's backlog is ahead of them and the API's own worker (API_SYNC_WORKER) takes none of that work;
 * - `<queue>-deliveries`: the webhook endpoints' delivery workflows, with slots sized for waiting on a
 *   receiver's answer, not for CPU, so that a recall's hundred notices do not queue behind batch steps.
 */
const SUFFIXES = ['-sync', '-deliveries'] as const;

/** The configured queue a derived one was named from (a queue of neither suffix is its own). */
const baseOf = (taskQueue: string): string => {
  const suffix = SUFFIXES.find((s) => taskQueue.endsWith(s));
  return suffix ? taskQueue.slice(0, -suffix.length) : taskQueue;
};

export const syncTaskQueueOf = (taskQueue: string): string => `${baseOf(taskQueue)}-sync`;

/** Where an endpoint's deliveries run, whichever of the service's queues the caller is on. */
export const deliveriesTaskQueueOf = (taskQueue: string): string => `${baseOf(taskQueue)}-deliveries`;
