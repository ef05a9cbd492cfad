/**
 * The rules a batch of normalised events is checked by before it is stored (activities/persist-events):
 * which events repeat an id, which locations the events name, and in what order new master data is
 * created and errors are reported. Pure: no I/O.
 */
import type { LocationRefPayload, NormalisedEvent, NormalisedLine } from './events';
import { locationIdOf } from './master-data';

/** The events of a batch by id: the first event of each id, and every later one that repeats it. */
export function eventIdRepeats<E extends Pick<NormalisedEvent, 'index' | 'externalId'>>(
  events: readonly E[],
): { firsts: E[]; repeats: { event: E; first: E }[] } {
  const firstOf = new Map<string, E>();
  const repeats: { event: E; first: E }[] = [];
  for (const event of events) {
    const first = firstOf.get(event.externalId);
    if (first) repeats.push({ event, first });
    else firstOf.set(event.externalId, event);
  }
  return { firsts: [...firstOf.values()], repeats };
}

/** Whether the event takes inventory from its location with a line matching `pick`: what the inventory check checks. */
export const consumes = (event: NormalisedEvent, pick: (line: NormalisedLine) => boolean = () => true): boolean =>
  event.lines.some((line) => line.sign < 0 && pick(line));

export type LocationField = 'Location' | 'SourceLocation' | 'DestinationLocation';

const LOCATION_FIELDS: readonly (readonly [LocationField, (event: NormalisedEvent) => LocationRefPayload | null])[] = [
  ['Location', (event) => event.location],
  ['SourceLocation', (event) => event.sourceLocation],
  ['DestinationLocation', (event) => event.destinationLocation],
];

/** One location an event names, with the external id it names it by (undefined: none was sent). */
export interface LocationReference {
  event: NormalisedEvent;
  field: LocationField;
  ref: LocationRefPayload;
  id: string | undefined;
}

/** Every location the events name (Location, SourceLocation, DestinationLocation), in batch order. */
export const locationReferences = (events: readonly NormalisedEvent[]): LocationReference[] =>
  events.flatMap((event) =>
    LOCATION_FIELDS.flatMap(([field, pick]) => {
      const ref = pick(event);
      return ref ? [{ event, field, ref, id: locationIdOf(ref) }] : [];
    }),
  );

/**
 * New products and locations are created in the order of their ids, whatever the order of the events:
 * two batches creating the same new entities then wait on each other's unique-index entries in one
 * order, never in a cycle (a deadlock PostgreSQL would break by failing one of them).
 */
export const inCreationOrder = <T>(byId: ReadonlyMap<string, T>): [string, T][] =>
  [...byId].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** Errors by event, in batch order (the checks find them kind by kind); errors of no event last. */
export const inBatchOrder = <E extends { index: number | null }>(errors: readonly E[]): E[] =>
  errors
    .map((error, i) => ({ error, i }))
    .sort((a, b) => (a.error.index ?? Infinity) - (b.error.index ?? Infinity) || a.i - b.i)
    .map(({ error }) => error);

interface ProblemAt {
  index: number | null;
  code: string;
  field: string | null;
}

/**
 * Whether a problem the API found translating the request (POST /Integration/JSON) already reports what
 * the pipeline found: a problem with the same part of the same event (the unknown product of a line, the
 * location, the event time), which the pipeline can only repeat in its own words. Duplicates and
 * inventory the API cannot check: never covered.
 */
export function coveredBy(prior: readonly ProblemAt[], error: ProblemAt): boolean {
  if (error.code === 'InsufficientInventory' || error.code === 'DuplicateEventId') return false;
  const part = (field: string | null) => field?.split('.')[0];
  return prior.some((issue) => issue.index === error.index && part(issue.field) === part(error.field));
}

/**
 * One refusal's list: the problems found first (the API's, in their own words), then the checks' errors
 * that do not repeat one of them, in batch order.
 */
export const withPrior = <E extends ProblemAt>(prior: readonly E[], errors: readonly E[]): E[] =>
  inBatchOrder([...prior, ...errors.filter((error) => !coveredBy(prior, error))]);
