import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { createApiKey } from '../db/repositories/accounts';
import { createSequelize } from '../db/sequelize';
import { startBenchStack } from './lib/stack';
import { percentile, runBench } from './lib/report';

/**
 * Query latency at scale (issue 6): 1,000,000 stored events across 10,000 lots (100 events a lot,
 * 10 lots per product, so 1,000 products of 1,000 records each), spread over 10 locations with GLNs.
 * The rows are generated in SQL and look like what the pipeline stores: each event's payload as an
 * integrator sends it, ships with a destination. Another account (a supplier) commissions every tenth
 * lot too and ships it to one of the bench account's GLNs, so the event details of those lots go
 * through the cross-account visibility path (10 supplier events a lot, on top of the 1,000,000).
 */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const LOTS = Number(process.env.BENCH_LOTS ?? 10_000);
const PRODUCTS = LOTS / 10;
const SHARED_EVERY = 10;
const SUPPLIER_EVENTS_PER_LOT = 10;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);

/** Each event is recorded a while after it happened, one a second as it was sent: a poll's recordTimes. */
const RECORDED_AFTER_MS = 5 * 60_000;
const FIRST_EVENT_TIME = '2024-01-01T00:00:00Z';
const happenedAt = (i: number) => new Date(Date.parse(FIRST_EVENT_TIME) + i * 1000).toISOString();
const recordedAt = (i: number) => new Date(Date.parse(happenedAt(i)) + RECORDED_AFTER_MS).toISOString();

/** A payload as the pipeline stores it: the event as the integrator sent it. */
const PAYLOAD = (
  type: string,
  id: string,
  location: string,
  time: string,
  lot: string,
  product: string,
  quantity: string,
  destination: string,
) => `
  jsonb_strip_nulls(jsonb_build_object(
    '$type', lower(${type}), 'Id', ${id}, 'Location', jsonb_build_object('Id', ${location}),
    'EventTime', to_char(${time} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'), 'EventTimeZone', '+00:00',
    'DestinationLocation', CASE WHEN ${type} = 'Ship' THEN jsonb_build_object('Id', ${destination}) END,
    'PurchaseOrder', CASE WHEN ${type} = 'Ship' THEN 'PO-' || ${id} END,
    'ProductInstances', jsonb_build_array(jsonb_build_object('Quantity', ${quantity}, 'LotSerial', ${lot}, 'Product', jsonb_build_object('Id', ${product})))))`;

/** One account's master data: a trade partner, `locations` (with GLNs when `glnOf` is given), no products. */
async function seedPartner(
  db: Client,
  accountId: string,
  prefix: string,
  locations: string[],
  gln: (n: number) => string | null,
): Promise<void> {
  await db.query(
    `INSERT INTO trade_partners (account_id, external_id, urn, name, connection_type) VALUES ($1, 'TP', $2, $3, 'SELF')`,
    [accountId, `urn:bench:${prefix}:tp`, `${prefix} Co`],
  );
  await db.query(
    `INSERT INTO locations (account_id, trade_partner_id, external_id, urn, name, gln)
     SELECT $1, tp.id, l.external_id, 'urn:bench:${prefix}:loc:' || l.n, 'Location ' || l.external_id, l.gln
       FROM trade_partners tp, unnest($2::text[], $3::text[]) WITH ORDINALITY AS l(external_id, gln, n) WHERE tp.account_id = $1`,
    [accountId, locations, locations.map((_, n) => gln(n))],
  );
}

const glnOf = (n: number) => `0614141${String(n).padStart(6, '0')}`;

async function seed(databaseUrl: string, accountId: string, supplierId: string): Promise<void> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('BEGIN');
    await seedPartner(
      db,
      accountId,
      'bench',
      Array.from({ length: 10 }, (_, n) => `LOC-${n}`),
      glnOf,
    );
    // Verified, as `npm run gln -- verify` would: only a verified GLN opens the supplier's shipments to it.
    await db.query(
      `INSERT INTO gln_verifications (gln, account_id, verified_by) SELECT gln, $1, 'bench' FROM locations WHERE account_id = $1`,
      [accountId],
    );
    await db.query(
      `INSERT INTO products (account_id, external_id, urn, name, unit_of_measure, sharing_policy, identifier_type)
       SELECT $1, 'P-' || n, 'urn:bench:p:' || n, 'Product ' || n, 'KGM', 'Open', 'Lot' FROM generate_series(0, $2::int - 1) n`,
      [accountId, PRODUCTS],
    );
    await db.query(
      `INSERT INTO batches (account_id, workflow_id, mode, status, event_count, request) VALUES ($1, $3, 'sync', 'Completed', $2, '{}')`,
      [accountId, EVENTS, `bench-${accountId}`],
    );
    // Event i belongs to lot i % LOTS at location lot % 10; a lot's first event commissions 1000, the
    // rest ship 1 each to the next location. Stored in order, as sent: seq follows recordTime.
    await db.query(
      `INSERT INTO events (account_id, batch_id, external_event_id, type, event_time, event_time_zone, location_id, destination_location_id, purchase_order, urn, payload, created_at)
       SELECT $1, b.id, 'E-' || g.i, g.type, g.at, '+00:00', loc.id, CASE WHEN g.type = 'Ship' THEN dest.id END,
              CASE WHEN g.type = 'Ship' THEN 'PO-E-' || g.i END, 'urn:uuid:' || gen_random_uuid(),
              ${PAYLOAD('g.type', "'E-' || g.i", 'loc.external_id', 'g.at', "'LOT-' || g.lot", "'P-' || (g.lot / 10)", "CASE WHEN g.type = 'Commission' THEN 1000 ELSE 1 END", 'dest.external_id')},
              g.at + interval '${RECORDED_AFTER_MS} milliseconds'
         FROM batches b,
              LATERAL (SELECT i, i % $3 AS lot, CASE WHEN i < $3 THEN 'Commission' ELSE 'Ship' END AS type,
                              timestamptz '${FIRST_EVENT_TIME}' + i * interval '1 second' AS at
                         FROM generate_series(0, $2::int - 1) i) g
         JOIN locations loc ON loc.account_id = $1 AND loc.external_id = 'LOC-' || (g.lot % 10)
         JOIN locations dest ON dest.account_id = $1 AND dest.external_id = 'LOC-' || ((g.lot + 1) % 10)
        WHERE b.account_id = $1
        ORDER BY g.i`,
      [accountId, EVENTS, LOTS],
    );
    await db.query(
      `INSERT INTO event_lines (account_id, event_id, position, role, product_id, lot_serial, quantity)
       SELECT $1, e.id, 0, 'instance', p.id, 'LOT-' || (substr(e.external_event_id, 3)::int % $2), CASE WHEN e.type = 'Commission' THEN 1000 ELSE 1 END
         FROM events e JOIN products p ON p.account_id = $1 AND p.external_id = 'P-' || ((substr(e.external_event_id, 3)::int % $2) / 10)
        WHERE e.account_id = $1`,
      [accountId, LOTS],
    );
    await db.query(
      `INSERT INTO inventory_records (account_id, product_id, lot_serial, location_id, event_id, event_line_id, event_time, event_seq, delta, balance, available)
       SELECT l.account_id, l.product_id, l.lot_serial, e.location_id, e.id, l.id, e.event_time, e.seq,
              CASE WHEN e.type = 'Commission' THEN l.quantity ELSE -l.quantity END, 0, 0
         FROM event_lines l JOIN events e ON e.id = l.event_id WHERE l.account_id = $1`,
      [accountId],
    );
    await db.query(
      `UPDATE inventory_records r SET balance = t.balance, available = t.available
         FROM (SELECT id, balance, min(balance) OVER (PARTITION BY product_id, lot_serial, location_id ORDER BY event_time DESC, event_seq DESC, event_line_id DESC ROWS UNBOUNDED PRECEDING) AS available
                 FROM (SELECT id, product_id, lot_serial, location_id, event_time, event_seq, event_line_id,
                              sum(delta) OVER (PARTITION BY product_id, lot_serial, location_id ORDER BY event_time, event_seq, event_line_id ROWS UNBOUNDED PRECEDING) AS balance
                         FROM inventory_records WHERE account_id = $1) b) t
        WHERE r.id = t.id`,
      [accountId],
    );
    await seedSupplier(db, supplierId);
    await db.query('COMMIT');
    await db.query('VACUUM ANALYZE');
  } finally {
    await db.end();
  }
}

/**
 * The supplier: every tenth lot of the bench account is also one of its lots (same LotSerial, its own
 * Open product). It commissions the lot, moves it between its docks, and ships it last to a location
 * whose GLN is the bench account's (verified) LOC-0: the bench account then sees all ten events.
 */
async function seedSupplier(db: Client, supplierId: string): Promise<void> {
  await seedPartner(db, supplierId, 'supplier', ['S-DOCK', 'S-YARD', 'BUYER-RECEIVING'], (n) =>
    n === 2 ? glnOf(0) : null,
  );
  await db.query(
    `INSERT INTO products (account_id, external_id, urn, name, unit_of_measure, sharing_policy, identifier_type)
     SELECT $1, 'SP-' || n, 'urn:bench:sp:' || n, 'Supplier product ' || n, 'KGM', 'Open', 'Lot' FROM generate_series(0, $2::int - 1) n`,
    [supplierId, PRODUCTS],
  );
  await db.query(
    `INSERT INTO batches (account_id, workflow_id, mode, status, event_count, request) VALUES ($1, $2, 'sync', 'Completed', 0, '{}')`,
    [supplierId, `bench-${supplierId}`],
  );
  await db.query(
    `INSERT INTO events (account_id, batch_id, external_event_id, type, event_time, event_time_zone, location_id, destination_location_id, purchase_order, urn, payload)
     SELECT $1, b.id, g.id, g.type, g.at, '+00:00', loc.id, dest.id, CASE WHEN g.type = 'Ship' THEN 'PO-' || g.id END, 'urn:uuid:' || gen_random_uuid(),
            ${PAYLOAD('g.type', 'g.id', 'loc.external_id', 'g.at', "'LOT-' || g.lot", "'SP-' || (g.lot / 10)", "CASE WHEN g.type = 'Commission' THEN 100 ELSE 1 END", 'dest.external_id')}
       FROM batches b,
            LATERAL (SELECT 'S-' || lot || '-' || k AS id, lot, CASE WHEN k = 0 THEN 'Commission' ELSE 'Ship' END AS type, k,
                            timestamptz '2023-12-01' + (lot * 60 + k) * interval '1 second' AS at
                       FROM generate_series(0, $2::int - 1, $3) lot, generate_series(0, $4::int - 1) k) g
       JOIN locations loc ON loc.account_id = $1 AND loc.external_id = CASE WHEN g.k % 2 = 0 THEN 'S-DOCK' ELSE 'S-YARD' END
       LEFT JOIN locations dest ON dest.account_id = $1 AND g.type = 'Ship'
            AND dest.external_id = CASE WHEN g.k = $4::int - 1 THEN 'BUYER-RECEIVING' WHEN g.k % 2 = 0 THEN 'S-YARD' ELSE 'S-DOCK' END
      WHERE b.account_id = $1`,
    [supplierId, LOTS, SHARED_EVERY, SUPPLIER_EVENTS_PER_LOT],
  );
  await db.query(
    `INSERT INTO event_lines (account_id, event_id, position, role, product_id, lot_serial, quantity)
     SELECT $1, e.id, 0, 'instance', p.id, e.payload #>> '{ProductInstances,0,LotSerial}', (e.payload #>> '{ProductInstances,0,Quantity}')::numeric
       FROM events e JOIN products p ON p.account_id = $1 AND p.external_id = e.payload #>> '{ProductInstances,0,Product,Id}'
      WHERE e.account_id = $1`,
    [supplierId],
  );
}

/** The first and last seq of the account's events. */
async function seqRange(databaseUrl: string, accountId: string): Promise<[bigint, bigint]> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ first: string; last: string }>(
      'SELECT min(seq) AS first, max(seq) AS last FROM events WHERE account_id = $1',
      [accountId],
    );
    return [BigInt(rows[0].first), BigInt(rows[0].last)];
  } finally {
    await db.end();
  }
}

async function measure(name: string, url: () => string, key: string) {
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < SAMPLES + 10; i++) {
    const started = performance.now();
    const response = await fetch(url(), { headers: { 'X-API-KEY': key, accept: 'application/json' } });
    const body = (await response.json()) as {
      totalItems?: number;
      products?: { lots: { inventory: unknown[] }[] }[];
      epcisBody?: { queryResults: { resultsBody: { eventList: unknown[] } } };
    };
    if (response.status !== 200) throw new Error(`${name}: HTTP ${response.status}`);
    if (i >= 10) times.push(performance.now() - started); // the first requests warm caches
    rows =
      body.totalItems ??
      body.epcisBody?.queryResults.resultsBody.eventList.length ??
      body.products?.reduce((n, p) => n + p.lots.reduce((m, l) => m + l.inventory.length, 0), 0) ??
      0;
  }
  times.sort((a, b) => a - b);
  return {
    query: name,
    samples: times.length,
    rowsPerAnswer: rows,
    p50Ms: +percentile(times, 50).toFixed(2),
    p95Ms: +percentile(times, 95).toFixed(2),
  };
}

export async function benchQueries() {
  const stack = await startBenchStack();
  try {
    const sequelize = createSequelize(stack.state.databaseUrl, 2);
    const { key, account } = await createApiKey('bench', 'bench');
    const { account: supplier } = await createApiKey('bench-supplier', 'bench');
    await sequelize.close();
    const seeding = performance.now();
    await seed(stack.state.databaseUrl, account.id, supplier.id);
    const seedSeconds = +((performance.now() - seeding) / 1000).toFixed(1);
    const random = (n: number) => Math.floor(Math.random() * n);
    const api = stack.state.apiUrl;
    const [first, last] = await seqRange(stack.state.databaseUrl, account.id);
    // An EPCIS query's nextPageToken: the seq after which its page starts (api/routes/epcis/paging.ts).
    const after = (seq: bigint) => Buffer.from(String(seq)).toString('base64url');
    /** A page of what happened in the last `seconds`, or in `seconds` from anywhere in the history. */
    const recent = (seconds: number) => () =>
      `${api}/epcis/events?perPage=100&GE_eventTime=${happenedAt(EVENTS - seconds)}`;
    const fromTheMiddle = (seconds: number) => () => {
      const start = random(EVENTS - seconds);
      return `${api}/epcis/events?perPage=100&GE_eventTime=${happenedAt(start)}&LT_eventTime=${happenedAt(start + seconds)}`;
    };
    const results = [
      await measure(
        'inventory for one product',
        () => `${api}/Integration/Inventory?ProductIds=P-${random(PRODUCTS)}`,
        key,
      ),
      await measure(
        'event details for one lot',
        () => `${api}/epcis/Events/details?LotSerial=LOT-${random(LOTS)}`,
        key,
      ),
      await measure(
        'event details for a lot a supplier shipped in',
        () => `${api}/epcis/Events/details?LotSerial=LOT-${random(LOTS / SHARED_EVERY) * SHARED_EVERY}`,
        key,
      ),
      await measure(
        'EPCIS query, a page of 100 events from anywhere in the account',
        () =>
          `${api}/epcis/events?perPage=100&nextPageToken=${after(first + BigInt(random(Number(last - first) - 100)))}`,
        key,
      ),
      // The way GDST's client asks for a lot's events (MATCH_anyEPCClass), as the product's URN and lot.
      await measure(
        'EPCIS query, the events of one lot (MATCH_anyEPCClass, 100 events)',
        () => {
          const lot = random(LOTS);
          return `${api}/epcis/events?perPage=100&MATCH_anyEPCClass=${encodeURIComponent(`urn:bench:p:${Math.floor(lot / 10)}.lot.LOT-${lot}`)}`;
        },
        key,
      ),
      // The supplier's events were stored after the account's last one: a poll must not read them.
      await measure(
        'EPCIS query, what is new after the newest event (none)',
        () => `${api}/epcis/events?perPage=100&nextPageToken=${after(last)}`,
        key,
      ),
      await measure(
        'EPCIS query, what was recorded in the last minute (GE_recordTime, 60 events)',
        () => `${api}/epcis/events?perPage=100&GE_recordTime=${recordedAt(EVENTS - 60)}`,
        key,
      ),
      await measure(
        'EPCIS query, what was recorded since the newest event (none)',
        () => `${api}/epcis/events?perPage=100&GE_recordTime=${recordedAt(EVENTS)}`,
        key,
      ),
      // What GS1 clients ask by event time: a window recent, or from the middle of the account's history.
      await measure('EPCIS query, what happened in the last hour (GE_eventTime, a page of 100)', recent(3600), key),
      await measure(
        'EPCIS query, an hour from the middle of the history (GE_ and LT_eventTime, a page of 100)',
        fromTheMiddle(3600),
        key,
      ),
      await measure('EPCIS query, what happened in the last day (GE_eventTime, a page of 100)', recent(86_400), key),
      await measure(
        'EPCIS query, a day from the middle of the history (GE_ and LT_eventTime, a page of 100)',
        fromTheMiddle(86_400),
        key,
      ),
      await measure(
        'EPCIS query, the 100 that happened last (orderBy=eventTime)',
        () => `${api}/epcis/events?perPage=100&orderBy=eventTime&orderDirection=DESC`,
        key,
      ),
      await measure(
        'EPCIS query, commissioning in the last hour (EQ_bizStep and GE_eventTime, none)',
        () => `${recent(3600)()}&EQ_bizStep=commissioning`,
        key,
      ),
    ];
    return {
      events: EVENTS,
      supplierEvents: (LOTS / SHARED_EVERY) * SUPPLIER_EVENTS_PER_LOT,
      lots: LOTS,
      products: PRODUCTS,
      seedSeconds,
      results,
    };
  } finally {
    await stack.stop();
    // KEEP_BENCH_STACK keeps the seeded data directory, to restart its PostgreSQL and EXPLAIN a slow query.
    if (process.env.KEEP_BENCH_STACK) console.error(`kept the stack's data in ${stack.dir}`);
    else fs.rmSync(stack.dir, { recursive: true, force: true });
  }
}

if (require.main === module) runBench(benchQueries);
