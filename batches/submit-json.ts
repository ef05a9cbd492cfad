/**
 * POST /Integration/JSON's use case: URN-based commission and transform events translated into the
 * batch-style payload and run through processEventBatch like any batch. The pipeline creates the new
 * entities inside its one transaction, so a rejected batch leaves nothing behind. What only the URN-based
 * request can show (times, vocabularies, units, URNs without data to create them) is found here and handed
 * to the pipeline with the batch (`Issues`), so one refusal lists those problems together with duplicates
 * and inventory.
 */
import type { Batch } from '../db/models';
import { findByExternalIds, findKnownEntities } from '../db/repositories/urn-entities';
import type { EventPayload } from '../domain/events';
import {
  jsonFieldOf,
  referencedUrns,
  translateJsonEvents,
  type JsonEvent,
  type Translation,
} from '../domain/json-events';
import type { EventReader } from './border-check';
import type { BatchOutcome } from './outcome';
import { submitBatch, type BatchDeps } from './submit';

export interface JsonEventsInput {
  account: { id: string; name: string };
  requestId: string;
  events: JsonEvent[];
}

/** The entities a commission's answer names, as stored once the batch completed. */
export type StoredEntities = Awaited<ReturnType<typeof findByExternalIds>>;

export interface JsonEventsSubmitted {
  batch: Batch;
  /** A refusal names the URN-based fields the caller sent, not the batch-style ones the pipeline checked. */
  outcome: BatchOutcome;
  translation: Translation;
  /** For a completed batch with a commission: the products, locations and trade partners it named. */
  stored?: StoredEntities;
}

/** Translates, stores and runs the events, waiting for their outcome as a sync call does. */
export async function submitJsonEvents(deps: BatchDeps, input: JsonEventsInput): Promise<JsonEventsSubmitted> {
  const { account, requestId, events } = input;
  const translation = translateJsonEvents(events, await findKnownEntities(account.id, referencedUrns(events)));
  const request = { Events: translation.events, ...(translation.issues.length ? { Issues: translation.issues } : {}) };
  const { batch, outcome } = await submitBatch(
    deps,
    { accountId: account.id, accountName: account.name, mode: 'json', request, eventCount: events.length, requestId },
    { wait: true },
  );
  if (outcome.kind === 'rejected')
    return {
      batch,
      translation,
      outcome: { kind: 'rejected', errors: outcome.errors.map((e) => ({ ...e, field: jsonFieldOf(e.field) })) },
    };
  if (outcome.kind !== 'completed' || !events.some((event) => event.$type === 'commission'))
    return { batch, outcome, translation };
  const stored = await findByExternalIds(account.id, {
    products: [
      ...translation.products.map((p) => p.externalId),
      ...outcome.result.flatMap((r) => r.productInstances.map((i) => i.productId)),
    ],
    locations: translation.locations.map((l) => l.externalId),
    tradePartners: translation.tradePartners.map((t) => t.externalId),
  });
  return { batch, outcome, translation, stored };
}

/**
 * The URN-based events a refused body holds besides the refused ones, translated as `submitJsonEvents`
 * translates them (inline data from these events only), for the checks that list every problem in one 400.
 */
export const jsonEventReader: EventReader = {
  read: async (account, events, skip) => {
    const positions = events.flatMap((_, index) => (skip.has(index) ? [] : [index]));
    const checked = positions.map((index) => events[index] as JsonEvent);
    const translation = translateJsonEvents(checked, await findKnownEntities(account.id, referencedUrns(checked)));
    // At their positions in the request; the refused ones are holes, which the checks skip.
    const payloads: EventPayload[] = new Array<EventPayload>(events.length);
    positions.forEach((index, i) => (payloads[index] = translation.events[i]));
    const issues = translation.issues.map((issue) => ({ ...issue, index: positions[issue.index] }));
    return { payloads, issues };
  },
  fieldOf: jsonFieldOf,
};
