import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createApiKey } from '../db/repositories/accounts';
import { verifyGln } from '../db/repositories/gln-verifications';
import { createSequelize } from '../db/sequelize';
import { glnOf } from '../domain/gln';
import { startBenchStack } from './lib/stack';
import { percentile, runBench } from './lib/report';

/**
 * Trace latency (issue 17): one chain across ACCOUNTS accounts (5), each receiving the previous one's
 * lot at a dock whose GLN is verified as its own, running TRANSFORMS_PER_ACCOUNT transforms in a row
 * (10: 50 in all) and shipping the last lot on; FILLER ships of 1 unit to 20 customers per lot bring the
 * chain to ~10,000 events. Everything goes through the real pipeline (POST /Integration/Events), then
 * the last account traces its last lot both ways and downloads the FSMA 204 spreadsheet over HTTP.
 */
const ACCOUNTS = Number(process.env.BENCH_TRACE_ACCOUNTS ?? 5);
const TRANSFORMS_PER_ACCOUNT = Number(process.env.BENCH_TRACE_TRANSFORMS ?? 10);
const FILLER = Number(process.env.BENCH_TRACE_FILLER ?? 180);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const SHEET_SAMPLES = Number(process.env.BENCH_SHEET_SAMPLES ?? 20);
const CUSTOMERS = 20;
const BATCH = 1000;

const stats = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    samples: sorted.length,
    p50Ms: +percentile(sorted, 50).toFixed(1),
    p95Ms: +percentile(sorted, 95).toFixed(1),
  };
};

type Payload = Record<string, unknown>;

const location = (id: string, name: string, connectionType: string, gln?: string): Payload => ({
  Id: id,
  Details: {
    Name: name,
    ...(gln ? { Gln: gln } : {}),
    TradePartner: { Id: `TP-${id}`, Name: name, ConnectionType: connectionType },
    Address: { City: 'Bergen', Country: 'NO', AddressLine1: 'Kai 1' },
  },
});
const product = (id: string): Payload => ({
  Id: id,
  Details: { Name: id, SimpleUnitOfMeasurement: 'KGM', SharingPolicy: 'Open', ProductIdentifierType: 'Lot' },
});
const instance = (productId: string, lot: string, quantity: number) => ({
  Quantity: quantity,
  LotSerial: lot,
  Product: product(productId),
});

/** The events of account `i` of the chain, in time order; `lotOf(i, k)` is its k-th lot. */
function accountEvents(i: number, glns: string[], lotOf: (i: number, k: number) => string): Payload[] {
  const dock = location(`DOCK-${i}`, `Dock ${i}`, 'SELF', glns[i]);
  const events: Payload[] = [];
  let second = 0;
  const at = () => new Date(Date.UTC(2024, 0, 1 + i, 0, 0, second++)).toISOString();
  const base = (type: string, extra: Payload) => ({
    $type: type,
    Id: `E-${i}-${events.length}`,
    Location: dock,
    EventTime: at(),
    EventTimeZone: '+00:00',
    ...extra,
  });
  const productOf = (k: number) => `P-${i}-${k}`;
  events.push(
    i === 0
      ? base('commission', { ProductInstances: [instance(productOf(0), lotOf(0, 0), 100_000)] })
      : base('receive', { ProductInstances: [instance(productOf(0), lotOf(i, 0), 1000)] }),
  );
  for (let k = 0; k <= TRANSFORMS_PER_ACCOUNT; k++) {
    for (let f = 0; f < FILLER; f++) {
      const customer = location(`CUST-${i}-${f % CUSTOMERS}`, `Customer ${i}.${f % CUSTOMERS}`, 'BUYER');
      events.push(
        base('ship', { DestinationLocation: customer, ProductInstances: [instance(productOf(k), lotOf(i, k), 1)] }),
      );
    }
    if (k < TRANSFORMS_PER_ACCOUNT) {
      events.push(
        base('transform', {
          InputProducts: [instance(productOf(k), lotOf(i, k), 500)],
          OutputProducts: [instance(productOf(k + 1), lotOf(i, k + 1), 5000)],
        }),
      );
    }
  }
  if (i + 1 < ACCOUNTS) {
    const next = location(`NEXT-${i}`, `Dock ${i + 1} (as account ${i} records it)`, 'BUYER', glns[i + 1]);
    events.push(
      base('ship', {
        DestinationLocation: next,
        ProductInstances: [instance(productOf(TRANSFORMS_PER_ACCOUNT), lotOf(i, TRANSFORMS_PER_ACCOUNT), 1000)],
      }),
    );
  }
  return events;
}

async function send(api: string, key: string, events: Payload[]): Promise<void> {
  for (let start = 0; start < events.length; start += BATCH) {
    const response = await fetch(`${api}/Integration/Events`, {
      method: 'POST',
      headers: { 'X-API-KEY': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ Events: events.slice(start, start + BATCH) }),
    });
    if (response.status !== 200)
      throw new Error(`events refused: HTTP ${response.status} ${(await response.text()).slice(0, 500)}`);
  }
}

async function timed(
  url: string,
  key: string,
  samples: number,
  check: (response: Response, body: ArrayBuffer) => void,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < samples + 5; i++) {
    const started = performance.now();
    const response = await fetch(url, { headers: { 'X-API-KEY': key } });
    const body = await response.arrayBuffer();
    if (i >= 5) times.push(performance.now() - started); // the first requests warm caches
    check(response, body);
  }
  return times;
}

/** A service already running (BENCH_API_URL with its DATABASE_URL), else a stack of the bench's own. */
async function service(): Promise<{ api: string; databaseUrl: string; stop: () => Promise<void> }> {
  if (process.env.BENCH_API_URL && process.env.DATABASE_URL) {
    return { api: process.env.BENCH_API_URL, databaseUrl: process.env.DATABASE_URL, stop: async () => undefined };
  }
  const stack = await startBenchStack();
  return {
    api: stack.state.apiUrl,
    databaseUrl: stack.state.databaseUrl,
    stop: async () => {
      await stack.stop();
      fs.rmSync(stack.dir, { recursive: true, force: true });
    },
  };
}

export async function benchTrace() {
  const { api, databaseUrl, stop } = await service();
  try {
    const sequelize = createSequelize(databaseUrl, 2);
    const keys: string[] = [];
    const stamp = Date.now().toString(36);
    // Twelve digits from the clock: a service that already has an earlier run's GLNs gets new ones.
    const glns = Array.from({ length: ACCOUNTS }, (_, i) =>
      glnOf(String(100_000_000_000 + ((Date.now() * 10 + i) % 900_000_000_000))),
    );
    for (let i = 0; i < ACCOUNTS; i++) {
      const name = `bench-trace-${stamp}-${i}`;
      keys.push((await createApiKey(name, 'bench')).key);
      await verifyGln(sequelize, name, glns[i], 'bench');
    }
    await sequelize.close();
    // Lot serials carry on across accounts: account i's first lot is account i-1's last.
    const lotOf = (i: number, k: number): string =>
      k === 0 && i > 0 ? lotOf(i - 1, TRANSFORMS_PER_ACCOUNT) : `LOT-${stamp}-${i}-${k}`;

    const loading = performance.now();
    let events = 0;
    for (let i = 0; i < ACCOUNTS; i++) {
      const batch = accountEvents(i, glns, lotOf);
      events += batch.length;
      await send(api, keys[i], batch);
    }
    const loadSeconds = +((performance.now() - loading) / 1000).toFixed(1);

    const last = ACCOUNTS - 1;
    const query = `ProductId=P-${last}-${TRANSFORMS_PER_ACCOUNT}&LotSerial=${encodeURIComponent(lotOf(last, TRANSFORMS_PER_ACCOUNT))}&Direction=both&MaxDepth=1000`;
    let shape = { nodes: 0, edges: 0, accounts: 0, transforms: 0 };
    const trace = await timed(`${api}/Integration/Trace?${query}`, keys[last], SAMPLES, (response, body) => {
      if (response.status !== 200) throw new Error(`trace: HTTP ${response.status}`);
      const graph = JSON.parse(Buffer.from(body).toString('utf8')) as {
        nodes: { account: string }[];
        edges: { type: string }[];
      };
      shape = {
        nodes: graph.nodes.length,
        edges: graph.edges.length,
        accounts: new Set(graph.nodes.map((n) => n.account)).size,
        transforms: graph.edges.filter((e) => e.type === 'Transform').length,
      };
    });
    let rows = 0;
    const csv = await timed(
      `${api}/Integration/Trace/fsma204?${query}&format=csv`,
      keys[last],
      SHEET_SAMPLES,
      (response, body) => {
        if (response.status !== 200) throw new Error(`fsma204 csv: HTTP ${response.status}`);
        rows = Buffer.from(body).toString('utf8').trim().split('\n').length - 1;
      },
    );
    const xlsx = await timed(
      `${api}/Integration/Trace/fsma204?${query}&format=xlsx`,
      keys[last],
      SHEET_SAMPLES,
      (response) => {
        if (response.status !== 200) throw new Error(`fsma204 xlsx: HTTP ${response.status}`);
      },
    );
    return {
      chain: { accounts: ACCOUNTS, transforms: ACCOUNTS * TRANSFORMS_PER_ACCOUNT, events, loadSeconds },
      traced: shape,
      results: [
        { query: 'trace of the last lot, both ways (target p95 < 100 ms)', ...stats(trace) },
        { query: `FSMA 204 csv, ${rows} rows (target < 1 s)`, ...stats(csv) },
        { query: `FSMA 204 xlsx, ${rows} rows (target < 1 s)`, ...stats(xlsx) },
      ],
    };
  } finally {
    await stop();
  }
}

if (require.main === module) runBench(benchTrace);
