import { acknowledgeBatch } from './acknowledge-batch';
import type { ActivityDeps } from './deps';

export type { ActivityDeps };

/** Activities get their dependencies here, so tests can build them against any database. */
export function createActivities(deps: ActivityDeps) {
  return {
    acknowledgeBatch: acknowledgeBatch(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
