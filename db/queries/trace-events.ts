import { QueryTypes, type Sequelize } from 'sequelize';
import type { CteLine, PlaceFacts } from '../../domain/fsma204';
import type { Trace } from './trace';

interface LineRow {
  event_id: string;
  account: string;
  type: string;
  role: string;
  event_time: Date;
  lot_serial: string;
  product_name: string;
  quantity: string;
  unit: string;
  location: PlaceFacts;
  source: PlaceFacts | null;
  destination: PlaceFacts | null;
  purchase_order: string | null;
  invoice_number: string | null;
  reference_document_id: string | null;
  documents: { type: string; number: string }[];
  input_lots: string[] | null;
}

const place = (location: string) =>
  `(SELECT json_build_object('tradePartner', tp.name, 'name', pl.name, 'gln', pl.gln, 'address', pl.address, 'phone', pl.contact->>'phone')
      FROM locations pl JOIN trade_partners tp ON tp.id = pl.trade_partner_id WHERE pl.id = ${location})`;

/**
 * Every event line the trace's caller may see at the trace's nodes: all of a visible node's lines up to
 * the moment the node was reached (its `until`), and at a shipment-only node just the shipments that the
 * trace's edges show.
 */
export async function traceEventLines(sequelize: Sequelize, trace: Trace): Promise<CteLine[]> {
  if (!trace.nodes.length) return [];
  const n = trace.nodes;
  const rows = await sequelize.query<LineRow>(
    `WITH n AS (
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::timestamptz[], $5::boolean[]) AS n(product_id, lot_serial, location_id, until, open)
     ),
     lines AS (
       SELECT DISTINCT l.id, l.event_id, l.role, l.product_id, l.lot_serial, l.quantity
         FROM n
         JOIN event_lines l ON l.product_id = n.product_id AND l.lot_serial = n.lot_serial
         JOIN events e ON e.id = l.event_id
        WHERE e.location_id = n.location_id AND e.event_time <= n.until AND (n.open OR e.id = ANY($6::uuid[]))
     )
     SELECT e.id AS event_id, a.name AS account, e.type, l.role, e.event_time, l.lot_serial, p.name AS product_name,
            l.quantity::text AS quantity, p.unit_of_measure AS unit,
            ${place('e.location_id')} AS location, ${place('e.source_location_id')} AS source, ${place('e.destination_location_id')} AS destination,
            e.purchase_order, e.invoice_number, e.reference_document_id,
            (SELECT coalesce(json_agg(json_build_object('type', d.document_type, 'number', d.document_id) ORDER BY d.document_id), '[]')
               FROM event_documents ed JOIN documents d ON d.id = ed.document_id WHERE ed.event_id = e.id) AS documents,
            CASE WHEN l.role = 'output' THEN
              (SELECT array_agg(DISTINCT i.lot_serial ORDER BY i.lot_serial) FROM event_lines i WHERE i.event_id = e.id AND i.role = 'input') END AS input_lots
       FROM lines l
       JOIN events e ON e.id = l.event_id
       JOIN accounts a ON a.id = e.account_id
       JOIN products p ON p.id = l.product_id
      ORDER BY e.event_time, e.seq, l.id`,
    {
      bind: [
        n.map((x) => x.product_id),
        n.map((x) => x.lot_serial),
        n.map((x) => x.location_id),
        n.map((x) => (x.until ? x.until.toISOString() : 'infinity')),
        n.map((x) => x.open),
        [...new Set(trace.edges.map((e) => e.event_id))],
      ],
      type: QueryTypes.SELECT,
    },
  );
  return rows.map((r) => ({
    eventId: r.event_id,
    account: r.account,
    type: r.type,
    role: r.role,
    eventTime: new Date(r.event_time),
    lotSerial: r.lot_serial,
    productName: r.product_name,
    quantity: r.quantity,
    unit: r.unit,
    location: r.location,
    source: r.source,
    destination: r.destination,
    documents: [
      ...r.documents,
      ...(r.purchase_order ? [{ type: 'Purchase Order', number: r.purchase_order }] : []),
      ...(r.invoice_number ? [{ type: 'Invoice', number: r.invoice_number }] : []),
      ...(r.reference_document_id ? [{ type: 'Reference Document', number: r.reference_document_id }] : []),
    ],
    inputLots: r.input_lots ?? [],
  }));
}
