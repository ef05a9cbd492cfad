import { urnCompanyPrefixes } from '../../domain/epcis/identifiers';
import type { EventPayload } from '../../domain/events';
import { recordCompanyPrefixes } from '../../db/repositories/batch-events';
import type { PersistStep } from './step';

/** The GS1 company prefixes the batch's EPCIS events spell out in EPC URNs, kept for /epcis/events' answers. */
export async function recordEpcisCompanyPrefixes(
  step: PersistStep,
  payloads: readonly EventPayload[],
  /** Listed by the capture, whose events' originals are stored apart. */
  listed: readonly string[] = [],
): Promise<void> {
  // Sorted (urnCompanyPrefixes), so two captures adding the same new prefixes at once wait for each other, never deadlock.
  // A capture stored before the originals were apart holds them in its events.
  const inPlace = payloads.flatMap((payload) => (payload.Epcis ? [payload.Epcis as Record<string, unknown>] : []));
  const prefixes = inPlace.length ? [...new Set([...listed, ...urnCompanyPrefixes(inPlace)])].sort() : listed;
  await recordCompanyPrefixes(step.query, step.account.id, prefixes);
}
