import { consumes, inCreationOrder, locationReferences, type LocationReference } from '../../domain/event-batch';
import type { NormalisedEvent } from '../../domain/events';
import type { LocationPayload } from '../../domain/master-data';
import { findOrCreateLocation, MasterDataConflict } from '../../db/repositories/master-data';
import { locationsByExternalId } from '../../db/queries/master-data-rows';
import type { BatchError } from '../../domain/batch-errors';
import { eventError, type CheckStep } from './step';

type NamedReference = LocationReference & { id: string };

/**
 * Locations named by the batch (Location, SourceLocation, DestinationLocation), resolved like products:
 * existing ones in one query, new ones created from the first reference (in batch order) with Details.
 * Each event that names a location neither found nor created says so, once per field. Each location's
 * stored vessel comes with it (`vessels`), for the commissions' GDST warnings.
 */
export async function resolveLocations(step: CheckStep, events: readonly NormalisedEvent[]) {
  const errors: BatchError[] = [];
  const refs: NamedReference[] = [];
  for (const reference of locationReferences(events)) {
    const { event, field, id } = reference;
    if (!id) errors.push(eventError(event, 'Required', `${field}.Id`, `${field}.Id is required.`));
    else refs.push({ ...reference, id });
  }
  const rows = await locationsByExternalId(step.query, step.account.id, [...new Set(refs.map((r) => r.id))]);
  const locations = new Map(rows.map((row) => [row.externalId, row.id]));
  const vessels = new Map(rows.flatMap((row) => (row.vessel ? [[row.id, row.vessel] as const] : [])));

  const creators = new Map<string, { reference: NamedReference; payload: LocationPayload }>();
  for (const reference of refs) {
    const { Details } = reference.ref;
    if (!locations.has(reference.id) && !creators.has(reference.id) && Details)
      creators.set(reference.id, { reference, payload: { ...reference.ref, Details } });
  }
  if (creators.size) await step.beforeWrite();
  const failed = new Set<string>();
  for (const [id, { reference, payload }] of inCreationOrder(creators)) {
    try {
      const { row } = await findOrCreateLocation(
        step.account,
        payload,
        step.urnDomain,
        step.transaction,
        reference.field,
      );
      locations.set(id, row.id);
      if (row.vessel) vessels.set(row.id, row.vessel);
    } catch (error) {
      if (!(error instanceof MasterDataConflict)) throw error;
      failed.add(id);
      errors.push(eventError(reference.event, 'InvalidValue', error.field, error.message));
    }
  }

  const named = new Set<string>();
  for (const { event, field, id } of refs) {
    if (locations.has(id) || failed.has(id) || named.has(`${event.index}|${field}`)) continue;
    named.add(`${event.index}|${field}`);
    const unchecked = field === 'Location' && consumes(event) ? '; the inventory of its lines was not checked' : '';
    errors.push(
      eventError(
        event,
        'UnknownLocation',
        `${field}.Id`,
        `Location ${id} does not exist in this account and the event carries no ${field}.Details to create it${unchecked}.`,
      ),
    );
  }
  return { locations, vessels, errors };
}
