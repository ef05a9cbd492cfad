import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { createApiKey } from '../db/repositories/accounts';
import { listGlns, verifyGln } from '../db/repositories/gln-verifications';
import { queryOf } from '../db/sql';
import { createSequelize } from '../db/sequelize';
import { glnOf } from '../domain/gs1-keys';
import { startReceiver } from '../test/helpers/receiver';
import { startBenchStack } from './lib/stack';
import { percentile, runBench } from './lib/report';

/**
 * Trace, recall and FSMA 204 at network scale (issue 46): a seafood network of `--accounts` accounts
 * (100: a tenth vessels, a tenth landing sites, a fifth processors, a fifth distributors, the rest
 * retailers) brought to `--events` events (1,000,000) through the real pipeline (POST
 * /Integration/Events). Every hour of the network's time each vessel lands a catch lot; the landing
 * site splits it across four processors; each processor merges what it received into fillet, portion
 * and trim lots and splits each across three distributors; each distributor splits each lot across four
 * retailers, which sell it in `--sales` sales (20) to their shops. A lot crosses four accounts, and
 * every account's dock GLN is verified as its own, so backward traces cross them all.
 *
 * Measured: random retail lots traced both ways by their retailer; GET /Integration/Trace/recall of
 * random lots a processor received; the FSMA 204 sheet of one retail lot that sells in `--sheet-rows`
 * sales (10,000); a recall issued by a processor of a lot it shipped to `--consignees` other accounts
 * (all of them), timed until every consignee's recall.received webhook reached a loopback receiver;
 * and the API's peak RSS.
 */
const { values: flags } = parseArgs({
  options: {
    accounts: { type: 'string' },
    events: { type: 'string' },
    sales: { type: 'string' },
    'sheet-rows': { type: 'string' },
    consignees: { type: 'string' },
    samples: { type: 'string' },
    'sheet-samples': { type: 'string' },
    clients: { type: 'string' },
    stamp: { type: 'string' },
  },
});
const option = (value: string | undefined, env: string | undefined, fallback: number) =>
  Number(value ?? env ?? fallback);
const ACCOUNTS = option(flags.accounts, process.env.BENCH_TRACE_ACCOUNTS, 100);
const EVENTS = option(flags.events, process.env.BENCH_TRACE_EVENTS, 1_000_000);
const SALES = option(flags.sales, process.env.BENCH_TRACE_SALES, 20);
const SHEET_ROWS = option(flags['sheet-rows'], process.env.BENCH_TRACE_SHEET_ROWS, 10_000);
const CONSIGNEES = Math.min(ACCOUNTS - 1, option(flags.consignees, process.env.BENCH_TRACE_CONSIGNEES, 100));
const SAMPLES = option(flags.samples, process.env.BENCH_SAMPLES, 200);
const SHEET_SAMPLES = option(flags['sheet-samples'], process.env.BENCH_SHEET_SAMPLES, 20);
const CLIENTS = option(flags.clients, process.env.BENCH_CLIENTS, 4);
const BATCH = 1000;
const CATCH_KG = 100_000;
const SALE_KG = 0.1;
const SHOPS = 10;

type Role = 'vessel' | 'landing' | 'processor' | 'distributor' | 'retailer';
const PRODUCTS = {
  whole: 'COD-WHOLE',
  fillet: 'COD-FILLET',
  portion: 'COD-PORTION',
  trim: 'COD-TRIM',
  loin: 'COD-LOIN',
};
type Product = (typeof PRODUCTS)[keyof typeof PRODUCTS];
interface Line {
  product: Product;
  lot: string;
  quantity: number;
}
/** One account's step, compact until it is sent: a sale block stands for `count` ships of SALE_KG. */
type Step = { at: number } & (
  | { kind: 'commission'; line: Line }
  | { kind: 'receive'; line: Line }
  | { kind: 'ship'; line: Line; to: number }
  | { kind: 'transform'; inputs: Line[]; outputs: Line[] }
  | { kind: 'sales'; line: Line; count: number; spacingMs: number }
);

interface Network {
  roles: Role[];
  steps: Step[][];
  events: number;
  hours: number;
  /** Each retailer's received lots. */
  retailLots: Line[][];
  /** Each processor's received lots, by account. */
  processorLots: Map<number, Line[]>;
  hot: { account: number; line: Line };
  recall: { account: number; line: Line; consignees: number[] };
}

function rolesOf(accounts: number): Role[] {
  const share = (fraction: number) => Math.max(1, Math.round(accounts * fraction));
  const counts: [Role, number][] = [
    ['vessel', share(0.1)],
    ['landing', share(0.1)],
    ['processor', share(0.2)],
    ['distributor', share(0.2)],
  ];
  const retailers = accounts - counts.reduce((sum, [, n]) => sum + n, 0);
  if (retailers < 1) throw new Error(`--accounts ${accounts}: at least 5 accounts make a network`);
  return [...counts, ['retailer', retailers] as [Role, number]].flatMap(([role, n]) => Array<Role>(n).fill(role));
}

const HOUR = 3_600_000;
const START = Date.UTC(2024, 0, 1);
/** The time of phase `phase` (minutes into hour `hour`), `n` seconds on to keep one account's steps apart. */
const timeOf = (hour: number, phase: number, n = 0) => START + hour * HOUR + phase * 60_000 + n * 1000;

/** The network's steps, hour by hour, until it has `EVENTS` events. */
function network(stamp: string): Network {
  const roles = rolesOf(ACCOUNTS);
  const of = (role: Role) => roles.flatMap((r, i) => (r === role ? [i] : []));
  const [vessels, landings, processors, distributors, retailers] = (
    ['vessel', 'landing', 'processor', 'distributor', 'retailer'] as Role[]
  ).map(of);
  const steps: Step[][] = roles.map(() => []);
  const retailLots: Line[][] = roles.map(() => []);
  const processorLots = new Map<number, Line[]>();
  let events = 0;
  const add = (account: number, step: Step) => {
    steps[account].push(step);
    events += step.kind === 'sales' ? step.count : 1;
  };
  /** `from` ships `line` to `to`, which receives it at `phase` + 1. */
  const ship = (from: number, to: number, line: Line, hour: number, phase: number, n: number) => {
    add(from, { kind: 'ship', at: timeOf(hour, phase, n), line, to });
    add(to, { kind: 'receive', at: timeOf(hour, phase + 1, n), line });
  };
  const hot = { account: retailers[0], line: null as Line | null };
  const recall = { account: processors[0], line: null as Line | null, consignees: [] as number[] };
  let hour = 0;
  for (; events < EVENTS; hour++) {
    const landed = new Map<number, Line[]>();
    vessels.forEach((v, i) => {
      const line = { product: PRODUCTS.whole, lot: `${stamp}-C${i}-${hour}`, quantity: CATCH_KG };
      add(v, { kind: 'commission', at: timeOf(hour, 0), line });
      const landing = landings[i % landings.length];
      ship(v, landing, line, hour, 1, 0);
      landed.set(landing, [...(landed.get(landing) ?? []), line]);
    });
    const received = new Map<number, Line[]>();
    for (const [landing, lots] of landed)
      lots.forEach((line, k) => {
        for (let j = 0; j < 4; j++) {
          const processor = processors[(landing * 4 + k * 4 + j + hour) % processors.length];
          const part = { ...line, quantity: line.quantity / 4 };
          ship(landing, processor, part, hour, 3, k * 4 + j);
          received.set(processor, [...(received.get(processor) ?? []), part]);
          processorLots.set(processor, [...(processorLots.get(processor) ?? []), part]);
        }
      });
    const toDistributors = new Map<number, Line[]>();
    for (const [p, inputs] of received) {
      const total = inputs.reduce((sum, l) => sum + l.quantity, 0);
      const i = processors.indexOf(p);
      const outputs: Line[] = [
        { product: PRODUCTS.fillet, lot: `${stamp}-F${i}-${hour}`, quantity: total * 0.4 },
        { product: PRODUCTS.portion, lot: `${stamp}-Q${i}-${hour}`, quantity: total * 0.3 },
        { product: PRODUCTS.trim, lot: `${stamp}-T${i}-${hour}`, quantity: total * 0.2 },
      ];
      const recalled = hour === 0 && p === recall.account;
      if (recalled) {
        recall.consignees = roles
          .map((_, a) => a)
          .filter((a) => a !== p)
          .slice(0, CONSIGNEES);
        recall.line = { product: PRODUCTS.loin, lot: `${stamp}-X`, quantity: recall.consignees.length * 100 };
        outputs.push(recall.line);
      }
      add(p, { kind: 'transform', at: timeOf(hour, 5), inputs, outputs });
      outputs.slice(0, 3).forEach((line, o) => {
        for (let k = 0; k < 3; k++) {
          const d = distributors[(i * 3 + o + k + hour) % distributors.length];
          const part = { ...line, quantity: Math.floor(line.quantity / 3) };
          ship(p, d, part, hour, 6, o * 3 + k);
          toDistributors.set(d, [...(toDistributors.get(d) ?? []), part]);
        }
      });
      if (recalled) recall.consignees.forEach((c, k) => ship(p, c, { ...recall.line!, quantity: 100 }, hour, 6, 9 + k));
    }
    const toRetailers = new Map<number, Line[]>();
    for (const [d, lots] of toDistributors) {
      const i = distributors.indexOf(d);
      lots.forEach((line, n) => {
        for (let k = 0; k < 4; k++) {
          const r = retailers[(i * 4 + k + n + hour) % retailers.length];
          const part = { ...line, quantity: Math.floor(line.quantity / 4) };
          ship(d, r, part, hour, 8, n * 4 + k);
          toRetailers.set(r, [...(toRetailers.get(r) ?? []), part]);
        }
      });
    }
    for (const [r, lots] of toRetailers) {
      lots.forEach((line, n) => {
        retailLots[r].push(line);
        const isHot = !hot.line && r === hot.account;
        if (isHot) hot.line = line;
        // The hot lot's sales are a quarter of a second apart, the others a second: all within the hour.
        const count = isHot ? SHEET_ROWS : SALES;
        add(r, {
          kind: 'sales',
          at: timeOf(hour, 10, isHot ? 0 : n * SALES),
          line,
          count,
          spacingMs: isHot ? 250 : 1000,
        });
      });
    }
  }
  if (!hot.line || !recall.line) throw new Error('the network has no hot lot or recalled lot: more --events');
  return {
    roles,
    steps,
    events,
    hours: hour,
    retailLots,
    processorLots,
    hot: { account: hot.account, line: hot.line },
    recall: { ...recall, line: recall.line },
  };
}

type Payload = Record<string, unknown>;

const product = (id: Product): Payload => ({
  Id: id,
  Details: { Name: id, SimpleUnitOfMeasurement: 'KGM', SharingPolicy: 'Open', ProductIdentifierType: 'Lot' },
});
const instance = (line: Line, quantity = line.quantity) => ({
  Quantity: quantity,
  LotSerial: line.lot,
  Product: product(line.product),
});

/** An account's events from its steps, in time order, with the locations it records. */
function eventsOf(account: number, net: Network, glns: string[]): Payload[] {
  const role = net.roles[account];
  const dock: Payload = {
    Id: `DOCK-${account}`,
    Details: {
      Name: `${role} ${account}`,
      Gln: glns[account],
      TradePartner: { Id: 'SELF', Name: `${role} ${account}`, ConnectionType: 'SELF' },
      Address: { City: 'Bergen', Country: 'NO', AddressLine1: `Kai ${account}` },
      ...(role === 'vessel'
        ? { Vessel: { VesselName: `FV Bench ${account}`, VesselFlagState: 'NO', VesselRegistration: `N-${account}-B` } }
        : {}),
    },
  };
  const partner = (to: number): Payload => ({
    Id: `TO-${to}`,
    Details: {
      Name: `${net.roles[to]} ${to}`,
      Gln: glns[to],
      TradePartner: { Id: `TP-${to}`, Name: `${net.roles[to]} ${to}`, ConnectionType: 'BUYER' },
      Address: { City: 'Oslo', Country: 'NO', AddressLine1: `Gate ${to}` },
    },
  });
  const shop = (k: number): Payload => ({
    Id: `SHOP-${account}-${k}`,
    Details: {
      Name: `Shop ${account}.${k}`,
      TradePartner: { Id: `SHOP-${account}-${k}`, Name: `Shop ${account}.${k}`, ConnectionType: 'BUYER' },
    },
  });
  const timed: { at: number; event: Payload }[] = [];
  const push = (at: number, type: string, extra: Payload) =>
    timed.push({
      at,
      event: {
        $type: type,
        Id: `E-${account}-${timed.length}`,
        Location: dock,
        EventTime: new Date(at).toISOString(),
        EventTimeZone: '+00:00',
        ...extra,
      },
    });
  for (const step of net.steps[account]) {
    if (step.kind === 'commission' || step.kind === 'receive')
      push(step.at, step.kind, { ProductInstances: [instance(step.line)] });
    else if (step.kind === 'ship')
      push(step.at, 'ship', { DestinationLocation: partner(step.to), ProductInstances: [instance(step.line)] });
    else if (step.kind === 'transform')
      push(step.at, 'transform', {
        InputProducts: step.inputs.map((l) => instance(l)),
        OutputProducts: step.outputs.map((l) => instance(l)),
      });
    else
      for (let s = 0; s < step.count; s++)
        push(step.at + s * step.spacingMs, 'ship', {
          DestinationLocation: shop(s % SHOPS),
          ProductInstances: [instance(step.line, SALE_KG)],
        });
  }
  return timed.sort((a, b) => a.at - b.at).map((t) => t.event);
}

/**
 * Sends an account's events in batches; each batch has an Idempotency-Key, so a batch whose connection
 * broke (a loaded machine's API cuts a body it has not read within REQUEST_TIMEOUT_SECONDS) is sent again
 * safely.
 */
async function send(api: string, key: string, events: Payload[], batchKey: (start: number) => string): Promise<void> {
  for (let start = 0; start < events.length; start += BATCH) {
    for (let attempt = 1; ; attempt++) {
      try {
        const response = await fetch(`${api}/Integration/Events`, {
          method: 'POST',
          headers: { 'X-API-KEY': key, 'Content-Type': 'application/json', 'Idempotency-Key': batchKey(start) },
          body: JSON.stringify({ Events: events.slice(start, start + BATCH) }),
        });
        if (response.status === 200) break;
        const text = (await response.text()).slice(0, 500);
        if (response.status !== 408 || attempt === 3)
          throw new Error(`events refused: HTTP ${response.status} ${text}`);
      } catch (error) {
        if (!(error instanceof TypeError) || attempt === 3) throw error; // fetch's network failures
      }
    }
  }
}

const stats = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    samples: sorted.length,
    p50Ms: +percentile(sorted, 50).toFixed(1),
    p95Ms: +percentile(sorted, 95).toFixed(1),
    maxMs: +sorted[sorted.length - 1].toFixed(1),
  };
};

/** Times `samples` requests (after 5 that warm caches) of `urls(i)`; `check` reads each answer. */
async function timed(
  samples: number,
  request: (i: number) => { url: string; key: string },
  check: (response: Response, body: ArrayBuffer) => void,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < samples + 5; i++) {
    const { url, key } = request(i);
    const started = performance.now();
    const response = await fetch(url, { headers: { 'X-API-KEY': key } });
    const body = await response.arrayBuffer();
    if (i >= 5) times.push(performance.now() - started);
    check(response, body);
  }
  return times;
}

/** A deterministic pseudo-random sequence, so runs pick the same lots. */
const picker = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};

const load = () => os.loadavg().map((l) => +l.toFixed(2));

/** Peak and current resident memory of a process, in MB (Linux). */
function memoryOf(pid: number | null): { peakRssMb: number; rssMb: number } | null {
  if (!pid) return null;
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { peakRssMb: Math.round(kb('VmHWM') / 1024), rssMb: Math.round(kb('VmRSS') / 1024) };
}

/** A service already running (BENCH_API_URL with its DATABASE_URL), else a stack of the bench's own. */
async function service() {
  if (process.env.BENCH_API_URL && process.env.DATABASE_URL) {
    const apiPid = process.env.BENCH_API_PID ? Number(process.env.BENCH_API_PID) : null;
    return {
      api: process.env.BENCH_API_URL,
      databaseUrl: process.env.DATABASE_URL,
      apiPid,
      stop: async () => undefined,
    };
  }
  const stack = await startBenchStack({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  return {
    api: stack.state.apiUrl,
    databaseUrl: stack.state.databaseUrl,
    apiPid: stack.state.apiPid,
    stop: async () => {
      await stack.stop();
      fs.rmSync(stack.dir, { recursive: true, force: true });
    },
  };
}

export async function benchTrace() {
  const loadAtStart = load();
  // --stamp names a network an earlier run seeded (with the same sizes): what it lacks is sent, then it is measured.
  const seeded = flags.stamp;
  const stamp = seeded ?? Date.now().toString(36);
  const net = network(stamp);
  const { api, databaseUrl, apiPid, stop } = await service();
  const receiver = await startReceiver();
  try {
    const sequelize = createSequelize(databaseUrl, 2);
    const keys: string[] = [];
    const glns: string[] = [];
    /** Per account, how many of its events are stored already (a batch is stored whole, in order). */
    const stored: number[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const name = `bench-trace-${stamp}-${i}`;
      keys.push((await createApiKey(name, 'bench')).key);
      const [known] = seeded ? await listGlns(sequelize, { account: name }) : [];
      // Twelve digits from the clock: a service that already has an earlier run's GLNs gets new ones.
      glns.push(known?.gln ?? glnOf(String(100_000_000_000 + ((Date.now() * 1000 + i) % 900_000_000_000))));
      if (!known) await verifyGln(sequelize, name, glns[i], 'bench');
      const [count] = await queryOf(sequelize)<{ n: number }>(
        `SELECT count(*)::int AS n FROM events e JOIN accounts a ON a.id = e.account_id WHERE a.name = $1`,
        [name],
      );
      stored.push(count.n);
    }
    await sequelize.close();

    const loading = performance.now();
    let sent = 0;
    const queue = net.roles.map((_, i) => i);
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        for (let account = queue.shift(); account !== undefined; account = queue.shift()) {
          const events = eventsOf(account, net, glns).slice(stored[account]);
          sent += events.length;
          await send(api, keys[account], events, (start) => `${stamp}-${account}-${stored[account] + start}`);
        }
      }),
    );
    const loadSeconds = (performance.now() - loading) / 1000;
    const loadBeforeMeasures = load();

    const traceUrl = (line: Line, path = '', extra = '') =>
      `${api}/Integration/Trace${path}?ProductId=${line.product}&LotSerial=${encodeURIComponent(line.lot)}${extra}`;
    const random = picker(46);
    const retailers = net.roles.flatMap((r, i) => (r === 'retailer' ? [i] : []));
    const shapes: { nodes: number; edges: number; accounts: number }[] = [];
    const trace = await timed(
      SAMPLES,
      () => {
        const r = retailers[Math.floor(random() * retailers.length)];
        const line = net.retailLots[r][Math.floor(random() * net.retailLots[r].length)];
        return { url: traceUrl(line, '', '&Direction=both&MaxDepth=1000'), key: keys[r] };
      },
      (response, body) => {
        if (response.status !== 200) throw new Error(`trace: HTTP ${response.status}`);
        const graph = JSON.parse(Buffer.from(body).toString('utf8')) as { nodes: { account: string }[]; edges: [] };
        shapes.push({
          nodes: graph.nodes.length,
          edges: graph.edges.length,
          accounts: new Set(graph.nodes.map((n) => n.account)).size,
        });
      },
    );
    const hot = net.hot;
    const hotQuery = (path: string, extra = '') => ({
      url: traceUrl(hot.line, path, `&Direction=both&MaxDepth=1000${extra}`),
      key: keys[hot.account],
    });
    let hotShape = { nodes: 0, edges: 0 };
    const hotTrace = await timed(
      SHEET_SAMPLES,
      () => hotQuery(''),
      (response, body) => {
        if (response.status !== 200) throw new Error(`hot trace: HTTP ${response.status}`);
        const graph = JSON.parse(Buffer.from(body).toString('utf8')) as { nodes: []; edges: [] };
        hotShape = { nodes: graph.nodes.length, edges: graph.edges.length };
      },
    );

    const processorLots = [...net.processorLots.entries()].flatMap(([p, lots]) => lots.map((line) => ({ p, line })));
    let recallShape = { lots: 0, shipments: 0 };
    const recallView = await timed(
      Math.ceil(SAMPLES / 4),
      () => {
        const { p, line } = processorLots[Math.floor(random() * processorLots.length)];
        return { url: traceUrl(line, '/recall'), key: keys[p] };
      },
      (response, body) => {
        if (response.status !== 200) throw new Error(`trace/recall: HTTP ${response.status}`);
        const view = JSON.parse(Buffer.from(body).toString('utf8')) as { lots: []; shipments: [] };
        recallShape = { lots: view.lots.length, shipments: view.shipments.length };
      },
    );

    let rows = 0;
    const csv = await timed(
      SHEET_SAMPLES,
      () => hotQuery('/fsma204', '&format=csv'),
      (response, body) => {
        if (response.status !== 200) throw new Error(`fsma204 csv: HTTP ${response.status}`);
        rows = Buffer.from(body).toString('utf8').trim().split('\n').length - 1;
      },
    );
    const xlsx = await timed(
      SHEET_SAMPLES,
      () => hotQuery('/fsma204', '&format=xlsx'),
      (response) => {
        if (response.status !== 200) throw new Error(`fsma204 xlsx: HTTP ${response.status}`);
      },
    );

    // The recall: every consignee listens for recall.received at this run's loopback receiver only (an
    // earlier run's endpoints, on a network measured again, are deleted: their receiver is gone).
    const { recall } = net;
    for (const c of recall.consignees) {
      const earlier = (await (
        await fetch(`${api}/Integration/Webhooks`, { headers: { 'X-API-KEY': keys[c] } })
      ).json()) as { results: { id: string }[] };
      for (const { id } of earlier.results)
        await fetch(`${api}/Integration/Webhooks/${id}`, { method: 'DELETE', headers: { 'X-API-KEY': keys[c] } });
      const response = await fetch(`${api}/Integration/Webhooks`, {
        method: 'POST',
        headers: { 'X-API-KEY': keys[c], 'Content-Type': 'application/json' },
        body: JSON.stringify({ Url: receiver.url, Events: ['recall.received'] }),
      });
      if (response.status !== 201) throw new Error(`webhook: HTTP ${response.status} ${await response.text()}`);
    }
    const loadBeforeRecall = load();
    const issuing = performance.now();
    const issuedAt = Date.now();
    const issued = await fetch(`${api}/Integration/Recalls`, {
      method: 'POST',
      headers: { 'X-API-KEY': keys[recall.account], 'Content-Type': 'application/json' },
      body: JSON.stringify({ ProductId: recall.line.product, LotSerial: recall.line.lot, Reason: 'Bench recall.' }),
    });
    const issuedMs = performance.now() - issuing;
    if (issued.status !== 201) throw new Error(`recall: HTTP ${issued.status} ${await issued.text()}`);
    const { id } = (await issued.json()) as { id: string };
    const deliveries = await receiver.waitFor(
      recall.consignees.length,
      (r) => r.body.includes('"recall.received"') && r.body.includes(id),
      60_000,
    );
    const deliveredMs = Math.max(...deliveries.map((d) => d.at)) - issuedAt;
    const view = (await (
      await fetch(`${api}/Integration/Recalls/${id}`, { headers: { 'X-API-KEY': keys[recall.account] } })
    ).json()) as { holders: unknown[] };
    const noticesStored = view.holders.length;

    return {
      load: { atStart: loadAtStart, beforeMeasures: loadBeforeMeasures, beforeRecall: loadBeforeRecall, atEnd: load() },
      network: {
        accounts: ACCOUNTS,
        roles: Object.fromEntries(
          ['vessel', 'landing', 'processor', 'distributor', 'retailer'].map((r) => [
            r,
            net.roles.filter((x) => x === r).length,
          ]),
        ),
        events: net.events,
        hours: net.hours,
        stamp,
        eventsSentThisRun: sent,
        sendSeconds: +loadSeconds.toFixed(1),
        eventsPerSecond: sent ? Math.round(sent / loadSeconds) : null,
      },
      results: [
        {
          query: 'GET /Integration/Trace, random retail lots, both ways (target p95 < 100 ms)',
          ...stats(trace),
          nodesMax: Math.max(...shapes.map((s) => s.nodes)),
          edgesMax: Math.max(...shapes.map((s) => s.edges)),
          accountsMax: Math.max(...shapes.map((s) => s.accounts)),
        },
        { query: `GET /Integration/Trace, the sheet's lot, both ways`, ...stats(hotTrace), ...hotShape },
        {
          query: 'GET /Integration/Trace/recall, random lots a processor received (target < 1 s)',
          ...stats(recallView),
          ...recallShape,
        },
        { query: `FSMA 204 csv, ${rows} rows (target < 1 s)`, ...stats(csv) },
        { query: `FSMA 204 xlsx, ${rows} rows (target < 2 s)`, ...stats(xlsx) },
      ],
      recall: {
        consignees: recall.consignees.length,
        noticesStored,
        webhooksDelivered: deliveries.length,
        issuedMs: Math.round(issuedMs),
        allDeliveredMs: Math.round(deliveredMs),
        target: 'every notice stored and its webhook delivered < 10 s',
      },
      apiMemory: memoryOf(apiPid),
    };
  } finally {
    await receiver.close();
    await stop();
  }
}

if (require.main === module) runBench(benchTrace);
