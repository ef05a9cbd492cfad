import type { ActivityDeps } from './deps';

export function acknowledgeBatch(_deps: ActivityDeps) {
  return async (input: { batchId: string; eventCount: number }): Promise<{ batchId: string; eventCount: number }> => ({
    batchId: input.batchId,
    eventCount: input.eventCount,
  });
}
