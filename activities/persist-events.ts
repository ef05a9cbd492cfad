import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Transaction } from 'sequelize';
import { canonicalDecimal, fromScaled, toScaled } from '../domain/decimal';
import { EventNormalisationError, normaliseEvent, type EventPayload, type NormalisedEvent, type LocationRefPayload } from '../domain/events';
import { urnCompanyPrefixes } from '../domain/epcis/identifiers';
import { gdstWarnings, type GdstVessel } from '../domain/gdst';
import { eventIdOf } from '../domain/hashing';
import { Timeline } from '../domain/inventory-timeline';
import { locationIdOf, UnknownUnitError, type LocationPayload, type ProductPayload } from '../domain/master-data';
import { eventUrn } from '../domain/urn';
import { findOrCreateLocation, findOrCreateProduct, MasterDataConflict, type AccountRef } from '../db/repositories/master-data';
import { lockKeys, queryOf, timelineKey, type Query } from '../db/sql';
import type { BatchError, PersistEventsInput, PersistEventsOutput } from '../workflows/contracts';
import type { ActivityDeps } from './deps';
import { rejectBatch } from './failures';
import { activityLogger } from './logger';
import { batchesFailed, batchesStarted, inventoryRejections } from '../platform/metrics';

interface ResolvedProduct {
  id: string;
  serial: boolean;
}

const eventError = (event: Pick<NormalisedEvent, 'index' | 'externalId'>, code: BatchError['code'], field: string, message: string): BatchError => ({
  index: event.index,
  eventId: event.externalId,
  code,
  field,
  message,
});

/** How the step's transaction ended: the events stored, or the batch refused with its error list. */
type PersistOutcome = PersistEventsOutput | { rejected: BatchError[]; recorded: 'now' | 'earlier' };

/**
 * Step 1: the batch's events, lines and inventory records in one transaction, all or nothing. The
 * events are read from the batch's stored request (the API wrote it before starting the workflow): the
 * workflow and its history carry only the batch's id.
 * A refused batch is marked Failed with its whole error list in the same transaction, with nothing of
 * the batch stored; the activity failure names only the first error, so the workflow history stays as
 * small as the batch's id whatever the number of errors (the batch row is where they are read).
 * Idempotent: event ids are derived from the batch id and position, and a retry after a commit finds
 * the batch's rows (or its refusal) and answers from them (the unique event ids are the last line of defence).
 */
export function persistEvents(deps: ActivityDeps) {
  const { sequelize } = deps;
  return async (ref: PersistEventsInput): Promise<PersistEventsOutput> => {
    const outcome = await sequelize.transaction((transaction) => persistOrRefuse(deps, ref, transaction));
    if (!('rejected' in outcome)) return outcome;
    if (outcome.recorded === 'now') batchesFailed.inc({ reason: outcome.rejected[0].code });
    rejectBatch(outcome.rejected);
  };
}

async function persistOrRefuse(deps: ActivityDeps, ref: PersistEventsInput, transaction: Transaction): Promise<PersistOutcome> {
  const query = queryOf(deps.sequelize, transaction);
  // The batch row's lock queues concurrent attempts of this step (a heartbeat timeout can start a
  // second one while the first still runs); the status it held, read under the lock, tells whether an
  // earlier attempt committed: only this step sets Running, in the transaction that stores the events.
  const rows = await query<{ request: BatchRequest; previous: string }>(
    `WITH previous AS (SELECT id, status FROM batches WHERE id = $1 AND account_id = $2 FOR UPDATE)
     UPDATE batches b SET status = 'Running', started_at = coalesce(b.started_at, now())
       FROM previous p
      WHERE b.id = p.id AND p.status IN ('Accepted', 'Running')
      RETURNING b.request, p.status AS previous`,
    [ref.batchId, ref.accountId],
  );
  if (rows[0]?.previous !== 'Accepted') {
    const stored = await storedSummary(query, ref.batchId);
    if (stored.events) return stored;
  }
  if (!rows.length) {
    const refused = await earlierRefusal(query, ref.batchId);
    if (refused) return { rejected: refused, recorded: 'earlier' };
    throw ApplicationFailure.create({ message: `Batch ${ref.batchId} is not waiting to run.`, type: 'BatchNotRunnable', nonRetryable: true });
  }
  if (Context.current().info.attempt === 1) batchesStarted.inc();
  const payloads = rows[0].request.Events;
  const prior = rows[0].request.Issues ?? [];

  const errors: BatchError[] = [];
  const events: NormalisedEvent[] = [];
  payloads.forEach((payload, index) => {
    try {
      events.push(normaliseEvent(payload, index));
    } catch (error) {
      if (!(error instanceof EventNormalisationError)) throw error;
      errors.push({ index, eventId: payload.Id ?? null, code: 'InvalidValue', field: error.field, message: error.message });
    }
  });
  const seen = new Map<string, number>();
  for (const event of events) {
    const first = seen.get(event.externalId);
    if (first !== undefined) {
      errors.push(eventError(event, 'DuplicateEventId', 'Id', `Event id ${event.externalId} appears twice in the batch (events ${first} and ${event.index}).`));
    } else seen.set(event.externalId, event.index);
  }

  // Every check runs before the batch is refused, so its answer lists every event's every problem. The
  // master data created on the way is undone with the rest; the refusal itself is kept.
  await query('SAVEPOINT checks', []);
  const account: AccountRef = { id: ref.accountId, name: ref.accountName };
  const duplicates = await query<{ external_event_id: string }>(
    'SELECT external_event_id FROM events WHERE account_id = $1 AND external_event_id = ANY($2::text[])',
    [account.id, [...seen.keys()]],
  );
  const byIndex = new Map(events.map((event) => [event.index, event]));
  for (const { external_event_id: id } of duplicates) {
    const event = byIndex.get(seen.get(id)!)!;
    errors.push(eventError(event, 'DuplicateEventId', 'Id', `An event with id ${id} already exists in this account.`));
  }

  const products = await resolveProducts(query, transaction, account, events, deps.urnDomain, errors);
  const locations = await resolveLocations(query, transaction, account, events, deps.urnDomain, errors);
  await checkInventory(query, account, events, products, locations, errors);
  if (errors.length || prior.length) {
    await query('ROLLBACK TO SAVEPOINT checks', []);
    const rejected = inBatchOrder([...prior, ...errors.filter((error) => !coveredBy(prior, error))]);
    await query(`UPDATE batches SET status = 'Failed', errors = $2::jsonb, completed_at = now() WHERE id = $1`, [ref.batchId, JSON.stringify(rejected)]);
    return { rejected, recorded: 'now' };
  }

  await insertBatch(query, account, ref.batchId, payloads, events, products, locations);
  await keepGdstWarnings(query, ref.batchId, payloads, events, locations);
  // Sorted, so two captures adding the same new prefixes at once wait for each other, never deadlock.
  const prefixes = urnCompanyPrefixes(payloads.flatMap((payload) => (payload.Epcis ? [payload.Epcis as Record<string, unknown>] : [])));
  if (prefixes.length) {
    await query('INSERT INTO epcis_company_prefixes (account_id, prefix) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [account.id, prefixes]);
  }
  activityLogger(deps.logger, { batchId: ref.batchId, account: ref.accountName }).info({ events: events.length }, 'events persisted');
  return {
    events: events.length,
    documents: payloads.some((payload) => Boolean(payload.DocumentIds?.length)),
    commissions: events.some((event) => event.type === 'Commission'),
  };
}

/**
 * The stored request as the pipeline reads it: the events, and the problems the API found translating
 * a request of another shape (POST /Integration/JSON), named as that request names its fields.
 */
interface BatchRequest {
  Events: EventPayload[];
  Issues?: BatchError[];
}

/**
 * Whether the API's translation already reported what the pipeline found: a problem with the same part
 * of the same event (the unknown product of a line, the location, the event time), which the pipeline
 * can only repeat in its own words. Duplicates and inventory the API cannot check: never covered.
 */
function coveredBy(prior: BatchError[], error: BatchError): boolean {
  if (error.code === 'InsufficientInventory' || error.code === 'DuplicateEventId') return false;
  const part = (field: string | null) => field?.split('.')[0];
  return prior.some((issue) => issue.index === error.index && part(issue.field) === part(error.field));
}

/** Errors by event, in batch order (the checks find them kind by kind); errors of no event last. */
const inBatchOrder = (errors: BatchError[]): BatchError[] =>
  errors.map((error, i) => ({ error, i })).sort((a, b) => (a.error.index ?? Infinity) - (b.error.index ?? Infinity) || a.i - b.i).map(({ error }) => error);

/** The error list an earlier attempt of this step refused the batch with (and committed), if it did. */
async function earlierRefusal(query: Query, batchId: string): Promise<BatchError[] | null> {
  const [row] = await query<{ status: string; errors: BatchError[] | null }>('SELECT status, errors FROM batches WHERE id = $1', [batchId]);
  const errors = row?.status === 'Failed' ? row.errors : null;
  return errors?.length && !errors.some((e) => e.code === 'InternalError') ? errors : null;
}

/** Whether the event takes inventory from its location with a line matching `pick`: what checkInventory checks. */
const consumes = (event: NormalisedEvent, pick: (line: NormalisedEvent['lines'][number]) => boolean = () => true): boolean =>
  event.lines.some((line) => line.sign < 0 && pick(line));

/** Products named by the batch: existing ones in one query, new ones created from their Details. */
async function resolveProducts(
  query: Query,
  transaction: Transaction,
  account: AccountRef,
  events: NormalisedEvent[],
  urnDomain: string,
  errors: BatchError[],
): Promise<Map<string, ResolvedProduct>> {
  const ids = [...new Set(events.flatMap((e) => e.lines.map((l) => l.product.Id)))];
  const rows = await query<{ id: string; external_id: string; identifier_type: string }>(
    'SELECT id, external_id, identifier_type FROM products WHERE account_id = $1 AND external_id = ANY($2::text[])',
    [account.id, ids],
  );
  const resolved = new Map(rows.map((r) => [r.external_id, { id: r.id, serial: r.identifier_type === 'Serial' }]));
  // The line that creates each new product: the first one, in batch order, that carries its Details.
  const creators = new Map<string, { event: NormalisedEvent; line: NormalisedEvent['lines'][number] }>();
  for (const event of events) {
    for (const line of event.lines) if (!resolved.has(line.product.Id) && !creators.has(line.product.Id) && line.product.Details) creators.set(line.product.Id, { event, line });
  }
  const failed = new Set<string>();
  for (const id of inCreationOrder(creators.keys())) {
    const { event, line } = creators.get(id)!;
    const field = `${line.field}.Product`;
    try {
      const { row } = await findOrCreateProduct(account, line.product as ProductPayload, urnDomain, transaction);
      resolved.set(id, { id: row.id, serial: row.identifierType === 'Serial' });
    } catch (error) {
      failed.add(id);
      if (error instanceof UnknownUnitError) {
        errors.push(eventError(event, 'InvalidValue', `${field}.Details.SimpleUnitOfMeasurement`, error.message));
      } else if (error instanceof MasterDataConflict) {
        errors.push(eventError(event, 'InvalidValue', `${field}.${error.field}`, error.message));
      } else throw error;
    }
  }
  for (const event of events) {
    // Each event that names an unknown product says so, once per product.
    const named = new Set<string>();
    for (const line of event.lines) {
      const id = line.product.Id;
      if (resolved.has(id) || failed.has(id) || named.has(id)) continue;
      named.add(id);
      const unchecked = consumes(event, (l) => l.product.Id === id) ? '; its inventory was not checked' : '';
      errors.push(eventError(event, 'UnknownProduct', `${line.field}.Product.Id`, `Product ${id} does not exist in this account and the event carries no Product.Details to create it${unchecked}.`));
    }
  }
  return resolved;
}

/**
 * New products and locations are created in the order of their ids, whatever the order of the events:
 * two batches creating the same new entities then wait on each other's unique-index entries in one
 * order, never in a cycle (a deadlock PostgreSQL would break by failing one of them).
 */
const inCreationOrder = (ids: Iterable<string>): string[] => [...ids].sort();

const LOCATION_FIELDS = [
  ['Location', (e: NormalisedEvent) => e.location],
  ['SourceLocation', (e: NormalisedEvent) => e.sourceLocation],
  ['DestinationLocation', (e: NormalisedEvent) => e.destinationLocation],
] as const;

/** Locations named by the batch (Location, SourceLocation, DestinationLocation), resolved like products. */
async function resolveLocations(
  query: Query,
  transaction: Transaction,
  account: AccountRef,
  events: NormalisedEvent[],
  urnDomain: string,
  errors: BatchError[],
): Promise<Map<string, string>> {
  const refs: { event: NormalisedEvent; field: string; ref: LocationRefPayload; id: string }[] = [];
  for (const event of events) {
    for (const [field, pick] of LOCATION_FIELDS) {
      const ref = pick(event);
      if (!ref) continue;
      const id = locationIdOf(ref);
      if (!id) errors.push(eventError(event, 'Required', `${field}.Id`, `${field}.Id is required.`));
      else refs.push({ event, field, ref, id });
    }
  }
  const rows = await query<{ id: string; external_id: string }>(
    'SELECT id, external_id FROM locations WHERE account_id = $1 AND external_id = ANY($2::text[])',
    [account.id, [...new Set(refs.map((r) => r.id))]],
  );
  const resolved = new Map(rows.map((r) => [r.external_id, r.id]));
  // The reference that creates each new location: the first one, in batch order, with Details.
  const creators = new Map<string, (typeof refs)[number]>();
  for (const ref of refs) if (!resolved.has(ref.id) && !creators.has(ref.id) && ref.ref.Details) creators.set(ref.id, ref);
  const failed = new Set<string>();
  for (const id of inCreationOrder(creators.keys())) {
    const { event, field, ref } = creators.get(id)!;
    try {
      const { row } = await findOrCreateLocation(account, ref as LocationPayload, urnDomain, transaction, field);
      resolved.set(id, row.id);
    } catch (error) {
      if (!(error instanceof MasterDataConflict)) throw error;
      failed.add(id);
      errors.push(eventError(event, 'InvalidValue', error.field, error.message));
    }
  }
  const named = new Set<string>();
  for (const { event, field, id } of refs) {
    // Each event that names an unknown location says so, once per field.
    if (resolved.has(id) || failed.has(id) || named.has(`${event.index}|${field}`)) continue;
    named.add(`${event.index}|${field}`);
    const unchecked = field === 'Location' && consumes(event) ? '; the inventory of its lines was not checked' : '';
    errors.push(eventError(event, 'UnknownLocation', `${field}.Id`, `Location ${id} does not exist in this account and the event carries no ${field}.Details to create it${unchecked}.`));
  }
  return resolved;
}

interface LineRow {
  eventIndex: number;
  role: string;
  position: number;
  productId: string;
  lotSerial: string;
  quantity: string;
  /** Signed change at the event's location; null for lines that move no inventory. */
  delta: string | null;
}

/**
 * Checks every consuming line against its timeline, under the timelines' locks (held until the batch
 * commits). A line whose product or location could not be resolved is not checked: its
 * UnknownProduct/UnknownLocation error says so.
 */
async function checkInventory(
  query: Query,
  account: AccountRef,
  events: NormalisedEvent[],
  products: Map<string, ResolvedProduct>,
  locations: Map<string, string>,
  errors: BatchError[],
): Promise<void> {
  const checkable: { event: NormalisedEvent; line: NormalisedEvent['lines'][number]; product: ResolvedProduct; locationId: string; key: string }[] = [];
  const keyOf = new Map<string, { productId: string; lotSerial: string; locationId: string }>();
  for (const event of events) {
    const locationId = locations.get(locationIdOf(event.location) ?? '');
    if (!locationId) continue;
    for (const line of event.lines) {
      const product = products.get(line.product.Id);
      if (!product || line.sign === 0) continue;
      const key = timelineKey(account.id, product.id, line.lotSerial, locationId);
      checkable.push({ event, line, product, locationId, key });
      keyOf.set(key, { productId: product.id, lotSerial: line.lotSerial, locationId });
    }
  }
  await lockKeys(query, [...keyOf.keys()]);

  // Only timelines that something consumes from need checking: an addition never lowers availability.
  const consumed = new Set(checkable.filter((c) => c.line.sign < 0).map((c) => c.key));
  const timelines = await loadTimelines(query, account.id, [...consumed].map((k) => keyOf.get(k)!));
  for (const { event, line, product, key } of checkable) {
    const time = Date.parse(event.eventTime);
    const quantity = toScaled(product.serial ? '1' : canonicalDecimal(line.quantity));
    const timeline = timelines.get(key);
    if (line.sign > 0) {
      timeline?.add(time, quantity);
      continue;
    }
    const { accepted, available } = timeline!.consume(time, quantity);
    if (!accepted && event.recorded) timeline!.add(time, -quantity);
    else if (!accepted) {
      inventoryRejections.inc({ type: event.type.toLowerCase() });
      const locationExternal = locationIdOf(event.location)!;
      errors.push({
        ...eventError(event, 'InsufficientInventory', `${line.field}.Quantity`, `Insufficient inventory of product ${line.product.Id}, lot ${line.lotSerial} at location ${locationExternal} at ${event.eventTime}: requested ${fromScaled(quantity)}, available ${fromScaled(available)}.`),
        product: line.product.Id,
        lotSerial: line.lotSerial,
        location: locationExternal,
        requested: Number(fromScaled(quantity)),
        available: Number(fromScaled(available)),
      });
    }
  }
}

/** Inserts the checked batch: one statement per table, whatever the batch size. */
async function insertBatch(
  query: Query,
  account: AccountRef,
  batchId: string,
  payloads: EventPayload[],
  events: NormalisedEvent[],
  products: Map<string, ResolvedProduct>,
  locations: Map<string, string>,
): Promise<void> {
  const lines: LineRow[] = [];
  for (const event of events) {
    for (const line of event.lines) {
      const product = products.get(line.product.Id)!;
      const quantity = product.serial ? '1' : canonicalDecimal(line.quantity);
      lines.push({
        eventIndex: event.index,
        role: line.role,
        position: line.position,
        productId: product.id,
        lotSerial: line.lotSerial,
        quantity,
        delta: line.sign === 0 ? null : line.sign > 0 ? quantity : fromScaled(-toScaled(quantity)),
      });
    }
  }

  const eventIds = events.map((e) => eventIdOf(batchId, e.index));
  const optionalLocation = (ref: LocationRefPayload | null) => (ref ? locations.get(locationIdOf(ref)!)! : null);
  const inserted = await query<{ id: string; seq: string }>(
    `INSERT INTO events (id, account_id, batch_id, external_event_id, type, event_time, event_time_zone, location_id,
                         source_location_id, destination_location_id, purchase_order, invoice_number, reference_document_id, urn, payload)
     SELECT u.id, $1, $2, u.external_id, u.type, u.event_time, u.zone, u.location_id, u.source_id, u.destination_id,
            u.purchase_order, u.invoice_number, u.reference, u.urn, p.payload
       FROM unnest($3::uuid[], $4::text[], $5::text[], $6::timestamptz[], $7::text[], $8::uuid[], $9::uuid[], $10::uuid[],
                   $11::text[], $12::text[], $13::text[], $14::text[])
            WITH ORDINALITY AS u(id, external_id, type, event_time, zone, location_id, source_id, destination_id,
                                 purchase_order, invoice_number, reference, urn, ord)
       JOIN jsonb_array_elements($15::jsonb) WITH ORDINALITY AS p(payload, ord) ON p.ord = u.ord
      ORDER BY u.ord
     RETURNING id, seq`,
    [
      account.id,
      batchId,
      eventIds,
      events.map((e) => e.externalId),
      events.map((e) => e.type),
      events.map((e) => e.eventTime),
      events.map((e) => e.eventTimeZone),
      events.map((e) => locations.get(locationIdOf(e.location)!)!),
      events.map((e) => optionalLocation(e.sourceLocation)),
      events.map((e) => optionalLocation(e.destinationLocation)),
      events.map((e) => e.purchaseOrder),
      events.map((e) => e.invoiceNumber),
      events.map((e) => e.referenceDocumentId),
      eventIds.map(eventUrn),
      // One JSON array, not a text[] of JSON: pg would escape every quote of every payload into an array literal.
      JSON.stringify(events.map((e) => payloads[e.index])),
    ],
  );
  const seqOf = new Map(inserted.map((r) => [r.id, r.seq]));
  if (!lines.length) return;

  const lineEvent = lines.map((l) => eventIds[l.eventIndex]);
  const insertedLines = await query<{ id: string }>(
    `INSERT INTO event_lines (account_id, event_id, position, role, product_id, lot_serial, quantity)
     SELECT $1, u.event_id, u.position, u.role, u.product_id, u.lot_serial, u.quantity
       FROM unnest($2::uuid[], $3::int[], $4::text[], $5::uuid[], $6::text[], $7::numeric[]) WITH ORDINALITY
            AS u(event_id, position, role, product_id, lot_serial, quantity, ord)
      ORDER BY u.ord
     RETURNING id`,
    [account.id, lineEvent, lines.map((l) => l.position), lines.map((l) => l.role), lines.map((l) => l.productId), lines.map((l) => l.lotSerial), lines.map((l) => l.quantity)],
  );
  const records = lines
    .map((line, i) => ({ line, lineId: insertedLines[i].id, event: events[line.eventIndex] }))
    .filter((r) => r.line.delta !== null);
  if (!records.length) return;
  // balance and available are placeholders here: recalculateTimeline derives them for the whole lot.
  await query(
    `INSERT INTO inventory_records (account_id, product_id, lot_serial, location_id, event_id, event_line_id, event_time, event_seq, delta, balance, available)
     SELECT $1, u.product_id, u.lot_serial, u.location_id, u.event_id, u.line_id, u.event_time, u.event_seq, u.delta, 0, 0
       FROM unnest($2::uuid[], $3::text[], $4::uuid[], $5::uuid[], $6::bigint[], $7::timestamptz[], $8::bigint[], $9::numeric[])
            AS u(product_id, lot_serial, location_id, event_id, line_id, event_time, event_seq, delta)`,
    [
      account.id,
      records.map((r) => r.line.productId),
      records.map((r) => r.line.lotSerial),
      records.map((r) => locations.get(locationIdOf(r.event.location)!)!),
      records.map((r) => eventIds[r.event.index]),
      records.map((r) => r.lineId),
      records.map((r) => r.event.eventTime),
      records.map((r) => seqOf.get(eventIds[r.event.index])!),
      records.map((r) => r.line.delta),
    ],
  );
}

/**
 * Each event's GDST KDE warnings, from the master data the event was stored against: a location named by
 * Id answers like one sent with Details (and Details sent again for a stored location change nothing).
 */
async function keepGdstWarnings(query: Query, batchId: string, payloads: EventPayload[], events: NormalisedEvent[], locations: Map<string, string>): Promise<void> {
  const locationOf = (event: NormalisedEvent) => locations.get(locationIdOf(event.location)!)!;
  const commissions = events.filter((event) => event.type === 'Commission');
  const rows = commissions.length
    ? await query<{ id: string; vessel: GdstVessel }>('SELECT id, vessel FROM locations WHERE id = ANY($1::uuid[]) AND vessel IS NOT NULL', [[...new Set(commissions.map(locationOf))]])
    : [];
  const vessels = new Map(rows.map((row) => [row.id, row.vessel]));
  const warnings = events.map((event) => gdstWarnings(payloads[event.index], event.index, vessels.get(locationOf(event)) ?? null));
  await query('UPDATE batches SET warnings = $2::jsonb WHERE id = $1', [batchId, JSON.stringify(warnings)]);
}

/** The stored deltas of the given timelines, one query for all of them. */
async function loadTimelines(
  query: Query,
  accountId: string,
  keys: { productId: string; lotSerial: string; locationId: string }[],
): Promise<Map<string, Timeline>> {
  const timelines = new Map(keys.map((k) => [timelineKey(accountId, k.productId, k.lotSerial, k.locationId), new Timeline()]));
  if (!keys.length) return timelines;
  const rows = await query<{ product_id: string; lot_serial: string; location_id: string; event_time: Date; event_seq: string; delta: string }>(
    // One range of the timeline index per key: LATERAL + OFFSET 0 keeps the planner from hashing the whole
    // account, and the ORDER BY makes the timeline index the obvious choice even with stale statistics.
    `SELECT k.product_id, k.lot_serial, k.location_id, r.event_time, r.event_seq, r.delta::text AS delta
       FROM unnest($2::uuid[], $3::text[], $4::uuid[]) AS k(product_id, lot_serial, location_id)
      CROSS JOIN LATERAL (
        SELECT event_time, event_seq, delta FROM inventory_records
         WHERE account_id = $1 AND product_id = k.product_id AND lot_serial = k.lot_serial AND location_id = k.location_id
         ORDER BY event_time, event_seq
        OFFSET 0) AS r`,
    [accountId, keys.map((k) => k.productId), keys.map((k) => k.lotSerial), keys.map((k) => k.locationId)],
  );
  const grouped = new Map<string, { time: number; seq: bigint; delta: bigint }[]>();
  for (const row of rows) {
    const key = timelineKey(accountId, row.product_id, row.lot_serial, row.location_id);
    let list = grouped.get(key);
    if (!list) grouped.set(key, (list = []));
    list.push({ time: row.event_time.getTime(), seq: BigInt(row.event_seq), delta: toScaled(row.delta) });
  }
  for (const [key, records] of grouped) timelines.set(key, new Timeline(records));
  return timelines;
}

/** What a committed earlier attempt stored: the step's answer when it runs again. */
async function storedSummary(query: Query, batchId: string): Promise<PersistEventsOutput> {
  const [row] = await query<{ events: string; documents: boolean; commissions: boolean }>(
    `SELECT count(*) AS events,
            coalesce(bool_or(jsonb_typeof(payload -> 'DocumentIds') = 'array' AND jsonb_array_length(payload -> 'DocumentIds') > 0), false) AS documents,
            coalesce(bool_or(type = 'Commission'), false) AS commissions
       FROM events WHERE batch_id = $1`,
    [batchId],
  );
  return { events: Number(row.events), documents: row.documents, commissions: row.commissions };
}
