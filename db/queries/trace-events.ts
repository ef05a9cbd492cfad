import type { Sequelize } from 'sequelize';
import type { CteLine, PlaceFacts, VesselFacts } from '../../domain/fsma204';
import type { Vessel } from '../models/location';
import { groupBy, queryOf, unnestArrays } from '../sql';
import { NOT_TO_A_CUSTOMER, type SheetNode } from './trace';

interface LineRow {
  event_id: string;
  account_id: string;
  type: string;
  role: string;
  event_time: Date;
  lot_serial: string;
  product_id: string;
  quantity: string;
  location_id: string;
  source_location_id: string | null;
  destination_location_id: string | null;
  purchase_order: string | null;
  invoice_number: string | null;
  reference_document_id: string | null;
}

interface PlaceRow extends Omit<PlaceFacts, 'vessel'> {
  vessel: Vessel | null;
}

/** A vessel as the sheet names it: the IMO number identifies it where it has one, else its registration. */
const vesselFacts = (v: Vessel): VesselFacts => ({
  name: v.vesselName,
  identifier: v.imoNumber ? `IMO ${v.imoNumber}` : v.vesselRegistration,
  flagState: v.vesselFlagState,
});

/** GDST's catch area: a CustomProperties entry named catchArea, in any namespace (as domain/gdst.ts reads it). */
const CATCH_AREAS = `
  SELECT e.id AS event_id, p ->> 'Value' AS area
    FROM events e
   CROSS JOIN LATERAL jsonb_array_elements(
           CASE WHEN jsonb_typeof(e.payload -> 'CustomProperties') = 'array' THEN e.payload -> 'CustomProperties' ELSE '[]'::jsonb END
         ) AS p
   WHERE e.id = ANY($1::uuid[]) AND jsonb_typeof(p) = 'object'
     AND lower(regexp_replace(p ->> 'Name', '^.*:', '')) = 'catcharea' AND btrim(coalesce(p ->> 'Value', '')) <> ''
   ORDER BY e.id, area`;

/**
 * The documents attached to events `$1` that account `$2` may read: all of its own, and another
 * account's only when their owner made them Public. Every read of attached documents goes through this
 * query, so a Private document's type and number never reach another account however the lines were found.
 */
const READABLE_DOCUMENTS = `
  SELECT ed.event_id, d.document_type AS type, d.document_id AS number
    FROM event_documents ed JOIN documents d ON d.id = ed.document_id
   WHERE ed.event_id = ANY($1::uuid[]) AND (d.privacy = 'Public' OR d.account_id = $2)
   ORDER BY d.document_id`;

/**
 * Of the purchase orders, invoices and reference document ids that another account's events `$1` name,
 * those that are the id of a Private document of that account (ids compare ignoring case, as uploads do):
 * a number its owner keeps private stays so, whichever field of the event repeats it.
 */
const PRIVATE_REFERENCES = `
  SELECT e.id AS event_id, lower(v.ref) AS ref
    FROM events e
   CROSS JOIN LATERAL (VALUES (e.purchase_order), (e.invoice_number), (e.reference_document_id)) AS v(ref)
    JOIN documents d ON d.account_id = e.account_id AND lower(d.document_id) = lower(v.ref) AND d.privacy = 'Private'
   WHERE e.id = ANY($1::uuid[]) AND e.account_id <> $2`;

/**
 * Every event line the trace's caller (`reader`) may see at the trace's nodes: all of a visible node's lines up to
 * the moment the node was reached (its `until`), and at a shipment-only node just the shipments that the
 * trace's edges show (`shown`: the edges' events, at least the other accounts'). Another account's
 * shipments to other organisations are shown only when they are edges: never one to another of its
 * customers. What the lines name (documents, input lots, products, accounts, locations) is read in
 * queries of its own, once each however many lines name it: joined per line, it cost seconds at 10,000.
 * A lot's lines are read once, then matched to its nodes by location: a lot sold to many shops is a node
 * per shop, and read per node its 10,000 lines were read eleven times (3 s on a loaded machine).
 */
export async function traceEventLines(
  sequelize: Sequelize,
  trace: { nodes: readonly Omit<SheetNode, 'id'>[]; shown: readonly string[] },
  reader: string,
): Promise<CteLine[]> {
  if (!trace.nodes.length) return [];
  const query = queryOf(sequelize);
  const n = trace.nodes;
  const rows = await query<LineRow>(
    `WITH n AS MATERIALIZED (
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::timestamptz[], $5::boolean[]) AS n(product_id, lot_serial, location_id, until, open)
     ),
     lines AS MATERIALIZED (
       SELECT l.id AS line_id, l.role, l.lot_serial, l.product_id, l.quantity, e.id AS event_id, e.account_id, e.type,
              e.event_time, e.seq, e.location_id, e.source_location_id, e.destination_location_id, e.purchase_order,
              e.invoice_number, e.reference_document_id
         FROM (SELECT DISTINCT product_id, lot_serial FROM n) lots
         JOIN event_lines l ON l.product_id = lots.product_id AND l.lot_serial = lots.lot_serial
         JOIN events e ON e.id = l.event_id
     ),
     shown AS MATERIALIZED (SELECT unnest($6::uuid[]) AS event_id)
     SELECT DISTINCT ON (x.event_time, x.seq, x.line_id)
            x.event_id, x.account_id, x.type, x.role, x.event_time, x.lot_serial, x.product_id, x.quantity::text AS quantity,
            x.location_id, x.source_location_id, x.destination_location_id, x.purchase_order, x.invoice_number, x.reference_document_id
       FROM lines x
       JOIN n ON n.product_id = x.product_id AND n.lot_serial = x.lot_serial AND n.location_id = x.location_id
      WHERE x.event_time <= n.until AND (n.open OR x.event_id IN (SELECT event_id FROM shown))
        AND (x.account_id = $7 OR x.event_id IN (SELECT event_id FROM shown) OR (${NOT_TO_A_CUSTOMER('x.event_id')}))
      ORDER BY x.event_time, x.seq, x.line_id`,
    [
      ...unnestArrays(n, ['product_id', 'lot_serial', 'location_id']),
      n.map((x) => (x.until ? x.until.toISOString() : 'infinity')),
      n.map((x) => x.open),
      [...new Set(trace.shown)],
      reader,
    ],
  );
  const eventIds = [...new Set(rows.map((r) => r.event_id))];
  const outputEvents = [...new Set(rows.filter((r) => r.role === 'output').map((r) => r.event_id))];
  // What each row names, read once per event, product, account or location rather than once per row.
  const foreignEvents = [...new Set(rows.filter((r) => r.account_id !== reader).map((r) => r.event_id))];
  const [documents, privateReferences, inputs, products, accounts] = await Promise.all([
    query<{ event_id: string; type: string; number: string }>(READABLE_DOCUMENTS, [eventIds, reader]),
    foreignEvents.length ? query<{ event_id: string; ref: string }>(PRIVATE_REFERENCES, [foreignEvents, reader]) : [],
    query<{ event_id: string; lot_serial: string }>(
      `SELECT DISTINCT event_id, lot_serial FROM event_lines WHERE role = 'input' AND event_id = ANY($1::uuid[]) ORDER BY lot_serial`,
      [outputEvents],
    ),
    query<{ id: string; name: string; unit: string }>(
      `SELECT id, name, unit_of_measure AS unit FROM products WHERE id = ANY($1::uuid[])`,
      [[...new Set(rows.map((r) => r.product_id))]],
    ),
    query<{ id: string; name: string }>(`SELECT id, name FROM accounts WHERE id = ANY($1::uuid[])`, [
      [...new Set(rows.map((r) => r.account_id))],
    ]),
  ]);
  const documentsOf = groupBy(documents, (d) => [d.event_id, { type: d.type, number: d.number }]);
  const hidden = new Set(privateReferences.map((p) => `${p.event_id}|${p.ref}`));
  const reference = (eventId: string, type: string, number: string | null) =>
    number && !hidden.has(`${eventId}|${number.toLowerCase()}`) ? [{ type, number }] : [];
  const inputsOf = groupBy(inputs, (i) => [i.event_id, i.lot_serial]);
  const productOf = new Map(products.map((p) => [p.id, p]));
  const accountOf = new Map(accounts.map((a) => [a.id, a.name]));
  const ids = new Set(
    rows
      .flatMap((r) => [r.location_id, r.source_location_id, r.destination_location_id])
      .filter((id): id is string => id !== null),
  );
  const places = new Map(
    (
      await query<PlaceRow>(
        `SELECT l.id, tp.name AS "tradePartner", l.name, l.gln, l.address, l.contact->>'phone' AS phone, l.vessel
           FROM locations l JOIN trade_partners tp ON tp.id = l.trade_partner_id WHERE l.id = ANY($1::uuid[])`,
        [[...ids]],
      )
    ).map((p): [string, PlaceFacts] => [p.id, { ...p, vessel: p.vessel ? vesselFacts(p.vessel) : null }]),
  );
  const place = (id: string | null): PlaceFacts | null => (id ? (places.get(id) ?? null) : null);
  // Catch areas matter only for a catch: commissions at vessels, a few events of a trace at most.
  const catches = [
    ...new Set(rows.filter((r) => r.type === 'Commission' && place(r.location_id)?.vessel).map((r) => r.event_id)),
  ];
  const areasOf = groupBy(
    catches.length ? await query<{ event_id: string; area: string }>(CATCH_AREAS, [catches]) : [],
    (a) => [a.event_id, a.area],
  );
  return rows.map((r) => ({
    eventId: r.event_id,
    account: accountOf.get(r.account_id)!,
    type: r.type,
    role: r.role,
    eventTime: new Date(r.event_time),
    lotSerial: r.lot_serial,
    productName: productOf.get(r.product_id)!.name,
    quantity: r.quantity,
    unit: productOf.get(r.product_id)!.unit,
    location: place(r.location_id)!,
    source: place(r.source_location_id),
    destination: place(r.destination_location_id),
    documents: [
      ...(documentsOf.get(r.event_id) ?? []),
      ...reference(r.event_id, 'Purchase Order', r.purchase_order),
      ...reference(r.event_id, 'Invoice', r.invoice_number),
      ...reference(r.event_id, 'Reference Document', r.reference_document_id),
    ],
    inputLots: r.role === 'output' ? (inputsOf.get(r.event_id) ?? []) : [],
    harvestAreas: areasOf.get(r.event_id) ?? [],
  }));
}
