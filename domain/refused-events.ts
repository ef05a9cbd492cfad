/**
 * When the API refuses some events of a request (its schema, its rules) and checks the others against
 * the account (batches/border-check.ts), a check can fail only because a refused event was left out:
 * the commission that would create the lot a later ship takes, the product or location it would create
 * from its Details. Such an error is not the checked event's: it is dropped, and the refused event's
 * error says which events were not fully checked because of it.
 */
import type { BatchError } from './batch-errors';

/** Every string in a value (ids, lots, names): what a refused event might have created or added to. */
function stringsOf(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string') into.add(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, into);
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) stringsOf(item, into);
  return into;
}

/** The value at a batch error's field inside its event (`ProductInstances[0].Product.Id`). */
function valueAt(event: unknown, field: string | null): unknown {
  let value = event;
  for (const part of field?.match(/[^.[\]]+/g) ?? []) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** What a check's error is about that a refused event could have supplied: the product, location or lot. */
function dependsOn(error: BatchError, event: unknown): string | undefined {
  switch (error.code) {
    case 'UnknownProduct':
    case 'UnknownLocation': {
      // The id itself (`Product.Id`), or the reference holding it (`ParentProduct` on POST /Integration/JSON).
      const named = valueAt(event, error.field);
      const id = typeof named === 'object' && named !== null ? (named as { Urn?: unknown; Id?: unknown }) : undefined;
      const value = id ? (id.Urn ?? id.Id) : named;
      return typeof value === 'string' ? value : undefined;
    }
    case 'InsufficientInventory':
      return error.lotSerial;
    default:
      return undefined;
  }
}

/** How a refusal's note names the records it speaks of: events of a request by index, by default. */
export interface RecordWords {
  /** The records at `indexes` as the subject of "… name(s) a product": `Events 1 and 2 name`. */
  listed: (indexes: readonly number[]) => string;
  /** One of them, as "this event". */
  one: string;
}

const eventWords: RecordWords = {
  listed: (indexes) =>
    indexes.length === 1
      ? `Event ${indexes[0]} names`
      : `Events ${indexes.slice(0, -1).join(', ')} and ${indexes[indexes.length - 1]} name`,
  one: 'event',
};

/**
 * The refused events' errors and the checks' errors of the other events, as one list: a check error that
 * a refused event could explain (it names the same product, location or lot) is left out, and the first
 * error of that refused event says which events were not checked against it. `refused` comes back in
 * its order, one for one.
 */
export function withUncheckedDependents(
  events: readonly unknown[],
  refused: readonly BatchError[],
  checked: readonly BatchError[],
  words: RecordWords = eventWords,
): { refused: BatchError[]; checked: BatchError[] } {
  const refusedIndexes = [...new Set(refused.flatMap((e) => (e.index === null ? [] : [e.index])))];
  const names = new Map(refusedIndexes.map((index) => [index, stringsOf(events[index])]));
  const dependents = new Map<number, Set<number>>();
  const kept = checked.filter((error) => {
    if (error.index === null) return true;
    const name = dependsOn(error, events[error.index]);
    if (name === undefined) return true;
    const causes = refusedIndexes.filter((index) => names.get(index)?.has(name));
    for (const cause of causes) {
      const waiting = dependents.get(cause) ?? new Set<number>();
      dependents.set(cause, waiting.add(error.index));
    }
    return causes.length === 0;
  });
  const noted = new Set<number>();
  const refusedNoted = refused.map((error) => {
    const waiting = error.index === null ? undefined : dependents.get(error.index);
    if (!waiting || error.index === null || noted.has(error.index)) return error;
    noted.add(error.index);
    const indexes = [...waiting].sort((a, b) => a - b);
    return {
      ...error,
      message: `${error.message} ${words.listed(indexes)} a product, location or lot that this ${words.one} names: ${indexes.length === 1 ? 'its' : 'their'} checks that depend on this ${words.one} were not made.`,
    };
  });
  return { refused: refusedNoted, checked: kept };
}
