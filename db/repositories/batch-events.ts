/**
 * A checked batch's rows, one statement per table whatever the batch size: its events, their lines and
 * the lines' inventory records. The event ids are derived from the batch (domain/hashing eventIdOf), so
 * a retried step cannot store them twice: the unique ids are the last line of defence.
 */
import { unnestArrays, type Query } from '../sql';

/** Which of these external event ids the account has stored already. */
export async function storedEventIds(
  query: Query,
  accountId: string,
  externalIds: readonly string[],
): Promise<Set<string>> {
  const rows = await query<{ external_event_id: string }>(
    'SELECT external_event_id FROM events WHERE account_id = $1 AND external_event_id = ANY($2::text[])',
    [accountId, [...externalIds]],
  );
  return new Set(rows.map((row) => row.external_event_id));
}

export interface NewEventRow {
  id: string;
  externalId: string;
  type: string;
  /** UTC, ISO 8601. */
  eventTime: string;
  eventTimeZone: string;
  locationId: string;
  sourceLocationId: string | null;
  destinationLocationId: string | null;
  purchaseOrder: string | null;
  invoiceNumber: string | null;
  referenceDocumentId: string | null;
  urn: string;
  /** The event as the caller sent it. */
  payload: unknown;
}

/** Inserts the events in the given order (their seq follows it); returns each event's seq by id. */
export async function insertEvents(
  query: Query,
  accountId: string,
  batchId: string,
  events: readonly NewEventRow[],
): Promise<Map<string, string>> {
  const inserted = await query<{ id: string; seq: string }>(
    `INSERT INTO events (id, account_id, batch_id, external_event_id, type, event_time, event_time_zone, location_id,
                         source_location_id, destination_location_id, purchase_order, invoice_number, reference_document_id, urn,
                         epcis_hash, payload)
     SELECT u.id, $1, $2, u.external_id, u.type, u.event_time, u.zone, u.location_id, u.source_id, u.destination_id,
            u.purchase_order, u.invoice_number, u.reference, u.urn, p.payload ->> 'EpcisHash', p.payload
       FROM unnest($3::uuid[], $4::text[], $5::text[], $6::timestamptz[], $7::text[], $8::uuid[], $9::uuid[], $10::uuid[],
                   $11::text[], $12::text[], $13::text[], $14::text[])
            WITH ORDINALITY AS u(id, external_id, type, event_time, zone, location_id, source_id, destination_id,
                                 purchase_order, invoice_number, reference, urn, ord)
       JOIN jsonb_array_elements($15::jsonb) WITH ORDINALITY AS p(payload, ord) ON p.ord = u.ord
      ORDER BY u.ord
     RETURNING id, seq`,
    [
      accountId,
      batchId,
      ...unnestArrays(events, [
        'id',
        'externalId',
        'type',
        'eventTime',
        'eventTimeZone',
        'locationId',
        'sourceLocationId',
        'destinationLocationId',
        'purchaseOrder',
        'invoiceNumber',
        'referenceDocumentId',
        'urn',
      ]),
      // One JSON array, not a text[] of JSON: pg would escape every quote of every payload into an array literal.
      JSON.stringify(events.map((e) => e.payload)),
    ],
  );
  return new Map(inserted.map((row) => [row.id, row.seq]));
}

export interface NewEventLineRow {
  eventId: string;
  position: number;
  role: string;
  productId: string;
  lotSerial: string;
  /** Canonical decimal. */
  quantity: string;
}

/** Inserts the lines in the given order; returns their ids in that order. */
export async function insertEventLines(
  query: Query,
  accountId: string,
  lines: readonly NewEventLineRow[],
): Promise<string[]> {
  if (!lines.length) return [];
  const inserted = await query<{ id: string }>(
    `INSERT INTO event_lines (account_id, event_id, position, role, product_id, lot_serial, quantity)
     SELECT $1, u.event_id, u.position, u.role, u.product_id, u.lot_serial, u.quantity
       FROM unnest($2::uuid[], $3::int[], $4::text[], $5::uuid[], $6::text[], $7::numeric[]) WITH ORDINALITY
            AS u(event_id, position, role, product_id, lot_serial, quantity, ord)
      ORDER BY u.ord
     RETURNING id`,
    [accountId, ...unnestArrays(lines, ['eventId', 'position', 'role', 'productId', 'lotSerial', 'quantity'])],
  );
  return inserted.map((row) => row.id);
}

export interface NewInventoryRecordRow {
  productId: string;
  lotSerial: string;
  locationId: string;
  eventId: string;
  eventLineId: string;
  /** UTC, ISO 8601. */
  eventTime: string;
  eventSeq: string;
  /** Signed change at the location, canonical decimal. */
  delta: string;
  /** As of this batch (canonical decimals): final unless persist reports that the lot needs recalculating. */
  balance: string;
  available: string;
}

/** Inserts the records with their balance and available as the persist step computed them. */
export async function insertInventoryRecords(
  query: Query,
  accountId: string,
  records: readonly NewInventoryRecordRow[],
): Promise<void> {
  if (!records.length) return;
  await query(
    `INSERT INTO inventory_records (account_id, product_id, lot_serial, location_id, event_id, event_line_id, event_time, event_seq, delta, balance, available)
     SELECT $1, u.product_id, u.lot_serial, u.location_id, u.event_id, u.line_id, u.event_time, u.event_seq, u.delta, u.balance, u.available
       FROM unnest($2::uuid[], $3::text[], $4::uuid[], $5::uuid[], $6::bigint[], $7::timestamptz[], $8::bigint[], $9::numeric[], $10::numeric[], $11::numeric[])
            AS u(product_id, lot_serial, location_id, event_id, line_id, event_time, event_seq, delta, balance, available)`,
    [
      accountId,
      ...unnestArrays(records, [
        'productId',
        'lotSerial',
        'locationId',
        'eventId',
        'eventLineId',
        'eventTime',
        'eventSeq',
        'delta',
        'balance',
        'available',
      ]),
    ],
  );
}

/**
 * The GS1 company prefixes the account's EPCIS events use (what /epcis/events answers URN queries by).
 * Callers pass them sorted, so two captures adding the same new prefixes at once wait for each other,
 * never deadlock.
 */
export async function recordCompanyPrefixes(
  query: Query,
  accountId: string,
  prefixes: readonly string[],
): Promise<void> {
  if (!prefixes.length) return;
  await query(
    'INSERT INTO epcis_company_prefixes (account_id, prefix) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING',
    [accountId, [...prefixes]],
  );
}
