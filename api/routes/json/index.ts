import Router from '@koa/router';
import type { EventReader } from '../../../batches/border-check';
import { submitBatch } from '../../../batches/submit';
import { findByExternalIds, findKnownEntities } from '../../../db/repositories/urn-entities';
import type { EventPayload } from '../../../domain/events';
import { jsonFieldOf, referencedUrns, translateJsonEvents, type JsonEvent } from '../../../domain/json-events';
import { type APIContext, type AppCustom, type AppState } from '../../context';
import { outcomeProblem, validateBatch } from '../events/batch';
import type { InputOf } from '../../middleware/validate';
import { acceptedBody } from '../events/presenter';
import { commissionBody, transformBody } from './presenter';
import { jsonEventsBody } from '../../../contract/json/schema';

/**
 * The URN-based events are translated into the batch-style payload and run through processEventBatch
 * like any batch: the pipeline creates the new entities inside its one transaction, so a rejected batch
 * leaves nothing behind. What only the URN-based request can show (times, vocabularies, units, URNs
 * without data to create them) is found here and handed to the pipeline with the batch (`Issues`), so
 * the answer lists those problems together with duplicates and inventory.
 */
async function submit(ctx: APIContext<InputOf<{ body: typeof jsonEventsBody }>>): Promise<void> {
  const { Events: events } = ctx.state.input.body;
  const { account, requestId } = ctx.state;
  const known = await findKnownEntities(account.id, referencedUrns(events));
  const translation = translateJsonEvents(events, known);
  // Problems found here go to the pipeline with the batch, which refuses it only once duplicates and
  // inventory are checked too: one answer lists them all (and nothing is stored).
  const request = { Events: translation.events, ...(translation.issues.length ? { Issues: translation.issues } : {}) };
  const submission = {
    accountId: account.id,
    accountName: account.name,
    mode: 'json' as const,
    request,
    eventCount: events.length,
    requestId,
  };
  const { batch, outcome } = await submitBatch(ctx.deps, submission, { wait: true });
  ctx.state.batchId = batch.id;
  if (outcome.kind === 'pending') {
    ctx.status = 202;
    ctx.body = acceptedBody(batch);
    return;
  }
  // The pipeline names the batch-style fields it checked; the caller sent the URN-based ones.
  if (outcome.kind === 'rejected')
    throw outcomeProblem(batch.id, {
      kind: 'rejected',
      errors: outcome.errors.map((e) => ({ ...e, field: jsonFieldOf(e.field) })),
    });
  if (outcome.kind !== 'completed') throw outcomeProblem(batch.id, outcome);
  const results = outcome.result;

  if (!events.some((event) => event.$type === 'commission')) {
    ctx.body = transformBody(results);
    return;
  }
  const stored = await findByExternalIds(account.id, {
    products: [
      ...translation.products.map((p) => p.externalId),
      ...results.flatMap((r) => r.productInstances.map((i) => i.productId)),
    ],
    locations: translation.locations.map((l) => l.externalId),
    tradePartners: translation.tradePartners.map((t) => t.externalId),
  });
  ctx.body = commissionBody(events, results, translation, stored);
}

/**
 * The URN-based events a refused body holds besides the refused ones, translated as `submit` translates
 * them (inline data from these events only), for the checks that list every problem in one 400.
 */
const urnEvents: EventReader = {
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

/** `POST /Integration/JSON`: URN-based commission and transform events (SPEC.md), answered when the pipeline is done. */
export function jsonRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();
  router.post(
    '/Integration/JSON',
    validateBatch({ body: jsonEventsBody }, { idKey: 'ExternalEventId', checkTheOthers: urnEvents }),
    submit,
  );
  return router;
}
