import { eventUrn } from '../../../domain/urn';
import type { EntityRef, JsonEvent, JsonProductInstance, Translation } from '../../../domain/json-events';
import type { AnsweredResult } from '../../../batches/outcome';
import type { StoredEntities } from '../../../batches/submit-json';
import { coordinatesOf } from '../locations/presenter';

/** In the order the pipeline reports lines: a transform's inputs, then its outputs. */
const instancesOf = (event: JsonEvent): JsonProductInstance[] =>
  event.$type === 'commission'
    ? (event.ProductInstances ?? [])
    : [...(event.InputProducts ?? []), ...(event.OutputProducts ?? [])];

const entries = <R extends { id: string; name: string; urn: string }, T>(
  refs: EntityRef[],
  rows: ReadonlyMap<string, R>,
  extra: (row: R) => T,
) =>
  refs.flatMap((ref) => {
    const row = rows.get(ref.externalId);
    return row ? [{ status: ref.status, id: row.id, name: row.name, urn: row.urn, ...extra(row) }] : [];
  });

/** SPEC.md's commission answer: the entities the batch named (Created or Skipped) and every event. */
export function commissionBody(
  events: JsonEvent[],
  results: AnsweredResult[],
  translation: Translation,
  stored: StoredEntities,
) {
  return {
    message: `${results.length} event${results.length === 1 ? '' : 's'} created.`,
    result: {
      products: entries(translation.products, stored.products, (row) => ({ gtin: row.gtin })),
      locations: entries(translation.locations, stored.locations, (row) => ({
        gln: row.gln,
        geoCoordinates: coordinatesOf(row.address),
      })),
      tradePartners: entries(translation.tradePartners, stored.tradePartners, (row) => ({ pgln: row.pgln })),
      events: results.map((result, index) => {
        const sent = instancesOf(events[index]);
        return {
          type: result.type,
          eventDate: result.eventDate,
          productInstances: result.productInstances.map((instance, position) => {
            const product = stored.products.get(instance.productId);
            return {
              quantity: Number(instance.quantity),
              lotSerial: instance.lotSerial,
              status: 'Created' as const,
              id: product?.id ?? instance.productId,
              name: product?.name ?? instance.productId,
              urn: sent[position]?.Urn || product?.urn || instance.productId,
            };
          }),
          status: result.status,
          id: result.id,
          name: result.externalEventId,
          urn: eventUrn(result.id),
          ...(result.warnings ? { warnings: result.warnings } : {}),
        };
      }),
    },
    errors: [],
  };
}

/** SPEC.md's transform answer, with the GDST warnings of its events (each naming its event) when there are some. */
export function transformBody(results: AnsweredResult[]) {
  const warnings = results.flatMap((r) => r.warnings ?? []);
  return { result: 'Success' as const, message: null, errors: [], ...(warnings.length ? { warnings } : {}) };
}
