import { eventIdRepeats } from '../../domain/event-batch';
import type { NormalisedEvent } from '../../domain/events';
import { storedEventIds } from '../../db/repositories/batch-events';
import type { BatchError } from '../../domain/batch-errors';
import { eventError, type CheckStep } from './step';

/** DuplicateEventId: an id the batch repeats (each repeat), or one the account has stored (its first event). */
export async function checkDuplicates(step: CheckStep, events: readonly NormalisedEvent[]): Promise<BatchError[]> {
  const { firsts, repeats } = eventIdRepeats(events);
  const errors = repeats.map(({ event, first }) =>
    eventError(
      event,
      'DuplicateEventId',
      'Id',
      `Event id ${event.externalId} appears twice in the batch (events ${first.index} and ${event.index}).`,
    ),
  );
  const stored = await storedEventIds(
    step.query,
    step.account.id,
    firsts.map((event) => event.externalId),
  );
  for (const event of firsts) {
    if (stored.has(event.externalId))
      errors.push(
        eventError(
          event,
          'DuplicateEventId',
          'Id',
          `An event with id ${event.externalId} already exists in this account.`,
        ),
      );
  }
  return errors;
}
