import type { EventPayload } from '../../domain/events';
import { gdstWarnings } from '../../domain/gdst';
import { storeBatchWarnings } from '../../db/repositories/batch-pipeline';
import type { LocationVessels, ResolvedEvent } from './resolved';
import type { PersistStep } from './step';

/**
 * Each event's GDST KDE warnings, kept on the batch, from the master data the event was stored against: a
 * location named by Id answers like one sent with Details (and Details sent again for a stored location
 * change nothing).
 */
export async function storeGdstWarnings(
  step: PersistStep,
  payloads: readonly EventPayload[],
  events: readonly ResolvedEvent[],
  vessels: LocationVessels,
): Promise<void> {
  const warnings = events.map(({ event, locationId }) =>
    gdstWarnings(payloads[event.index], event.index, vessels.get(locationId) ?? null),
  );
  await storeBatchWarnings(step.query, step.batchId, warnings);
}
