import type { Sequelize } from 'sequelize';
import { preparedQueryOf } from '../sql';

/**
 * The graph of a lot, walked in PostgreSQL with one recursive query.
 *
 * A node is one (product, lot, location): what the inventory timeline keeps apart (the product names
 * the account). An edge is an event line that moves a lot from one node to another: a transform (input
 * to output), an aggregation (child to parent), a disaggregation (parent to child), a ship (source to
 * destination). A shipment to a location of another organisation ends at the shipper's own record of
 * that location, unless the walk comes from the receiver's side (below).
 *
 * Visibility (the caller's own nodes are wholly visible):
 *  - backwards, a node of account B is reached from another account A's shipment only when the ship's
 *    destination GLN is verified as B's and B holds the lot at a location with that GLN;
 *  - a node of another account is shown up to the time the walk reached it (the shipment, or the
 *    transform that consumed it), and is walked further back only when its product is Open. A node whose
 *    product is Restricted is a stub: only the edge that reached it is shown. Of its shipments to other
 *    organisations, only those the walk took (its edges) are shown: never one to another of its customers;
 *  - forwards, the walk stays in the caller's account: shipping never shows the receiver's events.
 * So A → B → C lets C see what B could see of A, within the same policies, however many hops away;
 * an account that never shipped toward the caller's side of the chain is never reached.
 */

export type Direction = 'backward' | 'forward' | 'both';

export interface TraceFilter {
  accountId: string;
  productId: string;
  lotSerial: string;
  asOf: Date | null;
  direction: Direction;
}

export interface TraceNodeRow {
  id: string;
  account_id: string;
  account_name: string;
  product_id: string;
  product_external_id: string | null;
  product_name: string;
  product_gtin: string | null;
  unit: string;
  lot_serial: string;
  location_id: string;
  location_external_id: string | null;
  location_name: string;
  location_gln: string | null;
  trade_partner_name: string;
  connection_type: string;
  until: Date | null;
  open: boolean;
  quantity_in: string | null;
  quantity_out: string | null;
  quantity_on_hand: string | null;
  first_event: Date | null;
  last_event: Date | null;
  event_count: number;
}

export interface TraceEdgeRow {
  from_id: string;
  to_id: string;
  event_id: string;
  type: string;
  event_time: Date;
  seq: string;
  quantity: string;
}

const nodeId = (alias: string) =>
  `(${alias}.product_id::text || '|' || ${alias}.location_id::text || '|' || ${alias}.lot_serial)`;

/** Line `to` of an event was made from line `from`: a transform's output from its inputs, a parent from its children and back. */
const linked = (to: string, from: string) =>
  `((e.type = 'Transform' AND ${to}.role = 'output' AND ${from}.role = 'input')
    OR (e.type = 'Aggregation' AND ${to}.role = 'parent' AND ${from}.role = 'child')
    OR (e.type = 'Disaggregation' AND ${to}.role = 'child' AND ${from}.role = 'parent'))`;

/*
 * The nodes one step from walk row `w` (w.dir 'b' backwards, 'f' forwards), with the event line that
 * links them: transforms and aggregations (through the partial index of non-'instance' lines), ships of
 * the same account into w's location (by destination) or out of it (through w's inventory records,
 * which know their location, unlike event lines; the fenced lateral join (OFFSET 0) makes PostgreSQL
 * start from the destination index, not from the lot's lines), and other accounts' ships to a GLN verified as w's
 * account's (from each shipper's lines of the lot: a busy receiver has had thousands of shipments to its
 * GLN, a shipper few lines of one lot). Each way reads only the rows it can use, never all lines of a busy lot. Written once, used
 * by the walk and again to list the edges between the nodes it reached.
 */
const STEPS = `
  SELECT far.account_id, far.product_id, far.lot_serial, e.location_id, p.sharing_policy,
         e.id AS event_id, e.type, e.event_time, e.seq,
         CASE WHEN near.role IN ('input', 'child') THEN near.quantity ELSE far.quantity END AS quantity
    FROM event_lines near
    JOIN events e ON e.id = near.event_id
    JOIN event_lines far ON far.event_id = e.id AND far.role <> 'instance'
    JOIN products p ON p.id = far.product_id
   WHERE near.product_id = w.product_id AND near.lot_serial = w.lot_serial AND near.role <> 'instance'
     AND e.location_id = w.location_id AND e.event_time <= w.until
     AND CASE w.dir WHEN 'b' THEN ${linked('near', 'far')} ELSE ${linked('far', 'near')} END
  UNION ALL
  SELECT e.account_id, s.product_id, s.lot_serial, e.location_id, p.sharing_policy, e.id, e.type, e.event_time, e.seq, s.quantity
    FROM events e
    CROSS JOIN LATERAL (
      SELECT s.product_id, s.lot_serial, s.quantity FROM event_lines s
       WHERE s.event_id = e.id AND s.product_id = w.product_id AND s.lot_serial = w.lot_serial
      OFFSET 0
    ) s
    JOIN products p ON p.id = s.product_id
   WHERE w.dir = 'b' AND e.destination_location_id = w.location_id AND e.type = 'Ship' AND e.event_time <= w.until
  UNION ALL
  SELECT e.account_id, s.product_id, s.lot_serial, e.destination_location_id, p.sharing_policy, e.id, e.type, e.event_time, e.seq, s.quantity
    FROM inventory_records r
    JOIN events e ON e.id = r.event_id
    JOIN event_lines s ON s.id = r.event_line_id
    JOIN products p ON p.id = s.product_id
   WHERE w.dir = 'f' AND r.account_id = w.account_id AND r.product_id = w.product_id AND r.lot_serial = w.lot_serial
     AND r.location_id = w.location_id AND r.event_time <= w.until AND e.type = 'Ship'
  UNION ALL
  SELECT e.account_id, s.product_id, s.lot_serial, e.location_id, p.sharing_policy, e.id, e.type, e.event_time, e.seq, s.quantity
    FROM locations here
    JOIN gln_verifications v ON v.gln = here.gln AND v.account_id = w.account_id
    JOIN locations d ON d.gln = here.gln AND d.account_id <> w.account_id
    JOIN event_lines s ON s.account_id = d.account_id AND s.lot_serial = w.lot_serial
    JOIN events e ON e.id = s.event_id AND e.destination_location_id = d.id AND e.type = 'Ship' AND e.event_time <= w.until
    JOIN products p ON p.id = s.product_id
    JOIN products mine ON mine.id = w.product_id
   WHERE w.dir = 'b' AND here.id = w.location_id
     AND (p.gtin IS NULL OR mine.gtin IS NULL OR p.gtin = mine.gtin)`;

/**
 * SQL: whether event `eventId` is no shipment to another organisation (one to the shipper's own location
 * is a move): of another account's events, those are shown whether the walk took them or not.
 */
export const NOT_TO_A_CUSTOMER = (eventId: string): string => `
  SELECT e.type <> 'Ship' OR tp.connection_type IS NOT DISTINCT FROM 'SELF'
    FROM events e
    LEFT JOIN locations d ON d.id = e.destination_location_id
    LEFT JOIN trade_partners tp ON tp.id = d.trade_partner_id
   WHERE e.id = ${eventId}`;

const WALK = `
  walk(dir, account_id, product_id, lot_serial, location_id, until, open) AS (
    SELECT DISTINCT d.dir, e.account_id, l.product_id, l.lot_serial, e.location_id, $4::timestamptz, true
      FROM event_lines l JOIN events e ON e.id = l.event_id, unnest($5::text[]) AS d(dir)
     WHERE l.product_id = $2 AND l.lot_serial = $3 AND e.account_id = $1 AND e.event_time <= $4
    UNION
    SELECT w.dir, x.account_id, x.product_id, x.lot_serial, x.location_id,
           CASE WHEN x.account_id = $1 THEN $4::timestamptz ELSE x.event_time END,
           x.account_id = $1 OR x.sharing_policy = 'Open'
      FROM walk w CROSS JOIN LATERAL (${STEPS}) x
     WHERE w.open
  ),
  visited AS (
    SELECT account_id, product_id, lot_serial, location_id, max(until) AS until, bool_or(open) AS open
      FROM walk GROUP BY account_id, product_id, lot_serial, location_id
  )`;

/** $1 caller account, $2 root product, $3 lot, $4 AsOf ('infinity' for now), $5 directions ('b', 'f'). */
const TRACE = `WITH RECURSIVE ${WALK},
     edges AS (
       SELECT DISTINCT
              CASE w.dir WHEN 'b' THEN ${nodeId('x')} ELSE ${nodeId('w')} END AS from_id,
              CASE w.dir WHEN 'b' THEN ${nodeId('w')} ELSE ${nodeId('x')} END AS to_id,
              x.event_id, x.type, x.event_time, x.seq::text, x.quantity::text
         FROM walk w CROSS JOIN LATERAL (${STEPS}) x
        WHERE w.open
     ),
     -- Each node's edges, from it or to it: of another account's shipments, only these are shown.
     node_edges AS (
       SELECT id, array_agg(DISTINCT event_id) AS event_ids
         FROM (SELECT from_id AS id, event_id FROM edges UNION ALL SELECT to_id, event_id FROM edges) AS ends
        GROUP BY id
     ),
     nodes AS (
       SELECT ${nodeId('n')} AS id, n.account_id, a.name AS account_name, n.product_id, p.external_id AS product_external_id,
              p.name AS product_name, p.gtin AS product_gtin, p.unit_of_measure AS unit, n.lot_serial,
              n.location_id, l.external_id AS location_external_id, l.name AS location_name, l.gln AS location_gln,
              tp.name AS trade_partner_name, tp.connection_type,
              CASE WHEN n.until = 'infinity' THEN NULL ELSE n.until END AS until, n.open,
              r.quantity_in::text, r.quantity_out::text, r.quantity_on_hand::text,
              least(r.first_event, c.first_event) AS first_event, greatest(r.last_event, c.last_event) AS last_event,
              coalesce(r.event_count, 0) + coalesce(c.event_count, 0) AS event_count
         FROM visited n
         JOIN accounts a ON a.id = n.account_id
         JOIN products p ON p.id = n.product_id
         JOIN locations l ON l.id = n.location_id
         JOIN trade_partners tp ON tp.id = l.trade_partner_id
         LEFT JOIN node_edges ne ON ne.id = ${nodeId('n')}
         LEFT JOIN LATERAL (
           SELECT sum(r.delta) FILTER (WHERE r.delta > 0) AS quantity_in, -sum(r.delta) FILTER (WHERE r.delta < 0) AS quantity_out,
                  sum(r.delta) AS quantity_on_hand,
                  min(r.event_time) AS first_event, max(r.event_time) AS last_event, count(DISTINCT r.event_id)::int AS event_count
             FROM inventory_records r
            WHERE r.account_id = n.account_id AND r.product_id = n.product_id AND r.lot_serial = n.lot_serial
              AND r.location_id = n.location_id AND r.event_time <= n.until
              -- In this order: the caller's own nodes test nothing, another's look up each record's event by its key.
              AND (n.account_id = $1 OR r.event_id = ANY(ne.event_ids) OR (${NOT_TO_A_CUSTOMER('r.event_id')}))
         ) r ON n.open
         LEFT JOIN LATERAL (
           SELECT min(e.event_time) AS first_event, max(e.event_time) AS last_event, count(DISTINCT e.id)::int AS event_count
             FROM event_lines el JOIN events e ON e.id = el.event_id
            WHERE el.product_id = n.product_id AND el.lot_serial = n.lot_serial AND el.role <> 'instance'
              AND e.type IN ('Aggregation', 'Disaggregation') AND e.location_id = n.location_id AND e.event_time <= n.until
         ) c ON n.open
     )
     SELECT (SELECT json_agg(nodes ORDER BY first_event NULLS LAST, id) FROM nodes) AS nodes,
            (SELECT json_agg(edges ORDER BY event_time, seq, from_id, to_id) FROM edges) AS edges`;

/**
 * What the FSMA 204 sheet needs of a trace: where each node is (lot, location, until when, open or a
 * stub), the node pairs an event links (for the depth cut), and the other accounts' events among them: all
 * that is shown at a stub, and the only shipments of theirs shown anywhere.
 * The trace's totals per node and its edge per event line are left out: a lot sold 10,000 times is 10,008
 * edges, whose JSON and per-node totals over 10,000 inventory records were half the sheet's time.
 */
const SHEET = `WITH RECURSIVE ${WALK},
     steps AS (
       SELECT CASE w.dir WHEN 'b' THEN ${nodeId('x')} ELSE ${nodeId('w')} END AS from_id,
              CASE w.dir WHEN 'b' THEN ${nodeId('w')} ELSE ${nodeId('x')} END AS to_id,
              x.account_id, x.event_id
         FROM walk w CROSS JOIN LATERAL (${STEPS}) x
        WHERE w.open
     ),
     nodes AS (
       SELECT ${nodeId('n')} AS id, n.product_id, n.lot_serial, n.location_id,
              CASE WHEN n.until = 'infinity' THEN NULL ELSE n.until END AS until, n.open
         FROM visited n
     ),
     links AS (
       SELECT s.from_id, s.to_id, coalesce(array_agg(DISTINCT s.event_id) FILTER (WHERE s.account_id <> $1), '{}') AS shown
         FROM steps s
        GROUP BY s.from_id, s.to_id
     )
     SELECT (SELECT json_agg(nodes) FROM nodes) AS nodes, (SELECT json_agg(links) FROM links) AS edges`;

export interface Trace {
  nodes: TraceNodeRow[];
  edges: TraceEdgeRow[];
}

export type SheetNode = Pick<TraceNodeRow, 'id' | 'product_id' | 'lot_serial' | 'location_id' | 'until' | 'open'>;

/** Two nodes events link; `shown`: those of other accounts than the caller's. */
export interface SheetLink {
  from_id: string;
  to_id: string;
  shown: string[];
}

export interface SheetTrace {
  nodes: SheetNode[];
  edges: SheetLink[];
}

/** Runs the walk `sql` ($1 to $5 as TRACE's) the way that reads the fewest rows, prepared. */
async function walked<Row extends object>(sequelize: Sequelize, sql: string, filter: TraceFilter): Promise<Row> {
  const dirs = filter.direction === 'both' ? ['b', 'f'] : filter.direction === 'backward' ? ['b'] : ['f'];
  const bind = [filter.accountId, filter.productId, filter.lotSerial, filter.asOf ?? 'infinity', dirs];
  const [row] = await sequelize.transaction(async (transaction) => {
    // The joins are written in the order that reads the fewest rows; searching for another costs more to
    // plan (over 100 ms on a loaded machine) than the query takes to run. Prepared, each connection plans
    // it a few times only: a retail lot's trace at 1,000,000 events took 13 to 15 ms planned each time, 9 to 10 prepared.
    await sequelize.query('SET LOCAL join_collapse_limit = 1; SET LOCAL from_collapse_limit = 1', { transaction });
    return preparedQueryOf(sequelize, transaction)<Row>(sql, bind);
  });
  return row;
}

export async function traceLot(sequelize: Sequelize, filter: TraceFilter): Promise<Trace> {
  const row = await walked<{ nodes: TraceNodeRow[] | null; edges: TraceEdgeRow[] | null }>(sequelize, TRACE, filter);
  return {
    nodes: (row.nodes ?? []).map((n) => ({
      ...n,
      until: n.until ? new Date(n.until) : null,
      first_event: n.first_event ? new Date(n.first_event) : null,
      last_event: n.last_event ? new Date(n.last_event) : null,
    })),
    edges: (row.edges ?? []).map((e) => ({ ...e, event_time: new Date(e.event_time) })),
  };
}

/** The trace as the FSMA 204 sheet reads it (SHEET). */
export async function traceSheet(sequelize: Sequelize, filter: TraceFilter): Promise<SheetTrace> {
  const row = await walked<{ nodes: SheetNode[] | null; edges: SheetLink[] | null }>(sequelize, SHEET, filter);
  return {
    nodes: (row.nodes ?? []).map((n) => ({ ...n, until: n.until ? new Date(n.until) : null })),
    edges: row.edges ?? [],
  };
}
