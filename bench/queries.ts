import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { createApiKey } from '../db/repositories/accounts';
import { createSequelize } from '../db/sequelize';
import { startStack } from '../test/helpers/stack';

/**
 * Query latency at scale (issue 6): 1,000,000 stored events across 10,000 lots (100 events a lot,
 * 10 lots per product, so 1,000 products of 1,000 records each), spread over 10 locations. The rows
 * are generated in SQL (they stand for what the pipeline stores), then both queries run over HTTP.
 */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const LOTS = Number(process.env.BENCH_LOTS ?? 10_000);
const PRODUCTS = LOTS / 10;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function seed(databaseUrl: string, accountId: string): Promise<void> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('BEGIN');
    await db.query(
      `INSERT INTO trade_partners (account_id, external_id, urn, name, connection_type) VALUES ($1, 'TP', 'urn:bench:tp', 'Bench Co', 'SELF')`,
      [accountId],
    );
    await db.query(
      `INSERT INTO locations (account_id, trade_partner_id, external_id, urn, name)
       SELECT $1, tp.id, 'LOC-' || n, 'urn:bench:loc:' || n, 'Location ' || n
         FROM trade_partners tp, generate_series(0, 9) n WHERE tp.account_id = $1`,
      [accountId],
    );
    await db.query(
      `INSERT INTO products (account_id, external_id, urn, name, unit_of_measure, sharing_policy, identifier_type)
       SELECT $1, 'P-' || n, 'urn:bench:p:' || n, 'Product ' || n, 'KGM', 'Open', 'Lot' FROM generate_series(0, $2::int - 1) n`,
      [accountId, PRODUCTS],
    );
    await db.query(
      `INSERT INTO batches (account_id, workflow_id, mode, status, event_count, request)
       VALUES ($1, $3, 'sync', 'Completed', $2, '{}')`,
      [accountId, EVENTS, `bench-${accountId}`],
    );
    // Event i belongs to lot i % LOTS; a lot's first event commissions 1000, the rest ship 1 each.
    await db.query(
      `INSERT INTO events (account_id, batch_id, external_event_id, type, event_time, event_time_zone, location_id, urn, payload)
       SELECT $1, b.id, 'E-' || i, CASE WHEN i < $3 THEN 'Commission' ELSE 'Ship' END,
              timestamptz '2024-01-01' + i * interval '1 second', '+00:00',
              (SELECT id FROM locations WHERE account_id = $1 AND external_id = 'LOC-' || ((i % $3) % 10)),
              'urn:uuid:' || gen_random_uuid(), '{}'
         FROM batches b, generate_series(0, $2::int - 1) i WHERE b.account_id = $1`,
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
         FROM (SELECT id, balance, min(balance) OVER (PARTITION BY product_id, lot_serial, location_id ORDER BY event_time DESC, event_seq DESC) AS available
                 FROM (SELECT id, product_id, lot_serial, location_id, event_time, event_seq,
                              sum(delta) OVER (PARTITION BY product_id, lot_serial, location_id ORDER BY event_time, event_seq) AS balance
                         FROM inventory_records WHERE account_id = $1) b) t
        WHERE r.id = t.id`,
      [accountId],
    );
    await db.query('COMMIT');
    await db.query('VACUUM ANALYZE');
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
    const body = (await response.json()) as { totalItems?: number; products?: { lots: { inventory: unknown[] }[] }[] };
    if (response.status !== 200) throw new Error(`${name}: HTTP ${response.status}`);
    if (i >= 10) times.push(performance.now() - started); // the first requests warm caches
    rows = body.totalItems ?? body.products?.reduce((n, p) => n + p.lots.reduce((m, l) => m + l.inventory.length, 0), 0) ?? 0;
  }
  times.sort((a, b) => a - b);
  return { query: name, samples: times.length, rowsPerAnswer: rows, p50Ms: +percentile(times, 50).toFixed(2), p95Ms: +percentile(times, 95).toFixed(2) };
}

export async function benchQueries() {
  const stack = await startStack({ LOG_LEVEL: 'warn' });
  try {
    const sequelize = createSequelize(stack.state.databaseUrl, 2);
    const { key, account } = await createApiKey('bench', 'bench');
    await sequelize.close();
    const seeding = performance.now();
    await seed(stack.state.databaseUrl, account.id);
    const seedSeconds = +((performance.now() - seeding) / 1000).toFixed(1);
    const random = (n: number) => Math.floor(Math.random() * n);
    const api = stack.state.apiUrl;
    const results = [
      await measure('inventory for one product', () => `${api}/Integration/Inventory?ProductIds=P-${random(PRODUCTS)}`, key),
      await measure('event details for one lot', () => `${api}/epcis/Events/details?LotSerial=LOT-${random(LOTS)}`, key),
    ];
    return { events: EVENTS, lots: LOTS, products: PRODUCTS, seedSeconds, results };
  } finally {
    await stack.stop();
    fs.rmSync(stack.dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  benchQueries().then(
    (report) => {
      console.log(JSON.stringify(report, null, 2));
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
