import { EventNormalisationError, normaliseEvent, type EventPayload, type NormalisedEvent } from '../../domain/events';
import type { BatchError } from '../../domain/batch-errors';

/**
 * The events in the pipeline's internal shape; an event that cannot be normalised (its time) is an error
 * instead. The events at `skip` are left out (the API found them refused already), keeping the others' indexes.
 */
export function normaliseEvents(payloads: readonly EventPayload[], skip: ReadonlySet<number> = new Set()) {
  const events: NormalisedEvent[] = [];
  const errors: BatchError[] = [];
  payloads.forEach((payload, index) => {
    if (skip.has(index)) return;
    try {
      events.push(normaliseEvent(payload, index));
    } catch (error) {
      if (!(error instanceof EventNormalisationError)) throw error;
      errors.push({
        index,
        eventId: payload.Id ?? null,
        code: 'InvalidValue',
        field: error.field,
        message: error.message,
      });
    }
  });
  return { events, errors };
}
