/**
 * `npm run bench:fairness`: one account's burst against another's calls, on a stack of its own (issues 30, 45).
 *
 *   BENCH_EVENTS   events of account A's async burst (default 20000, in batches of 500)
 *   BENCH_SINGLE   account B's back-to-back one-event sync calls, idle and during the burst (default 40)
 *   BENCH_PACED    account B's paced calls (one a second, as a scanner sends them) while idle (default 20);
 *                  during the burst they go on until it ends
 *   BENCH_B_EVENTS events in each of B's sync calls (default 1; over 50, they run in the bulk worker, beside
 *                  A's batches, instead of in the interactive one)
 *
 * B's calls go in turns to two APIs of the stack: its own, whose worker runs small sync batches in the API
 * (API_SYNC_WORKER, eager start), and one without (API_SYNC_WORKER=false), whose batches the interactive
 * worker process runs: both paths are measured under the same load.
 *
 * Prints one JSON object: B's one-event sync call latency with the service idle and while A's burst is
 * queued, back to back and paced (target: p95 at most 3× idle), and A's burst rate alone and with B's
 * calls beside it (target, with B paced: at least 90 % of alone), with each burst's CPU by process and
 * A's share split into the CPU B's calls added and how busy the cores were kept.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Client } from '@temporalio/client';
import { Pool } from 'pg';
import { createApiKey } from '../db/repositories/accounts';
import { createSequelize } from '../db/sequelize';
import { stopChild } from '../supervisor/child-process';
import { connectTemporalClient } from '../platform/temporal-client';
import { startBenchStack } from './lib/stack';
import {
  cpuMs,
  processesOf,
  startExtraApi,
  totalMs,
  usedBetween,
  type Role,
  type StackProcesses,
} from './lib/processes';
import { latencyMs, round, runBench } from './lib/report';
import { whereWaited } from './lib/where-waited';
import { benchLocation, benchProduct } from './lib/master-data';

const N = Number(process.env.BENCH_EVENTS ?? 20000);
const SINGLE = Number(process.env.BENCH_SINGLE ?? 40);
const PACED = Number(process.env.BENCH_PACED ?? 20);
/** A scanner's pace: one call a second, whatever the last one took. */
const PACE_MS = 1000;
const B_EVENTS = Number(process.env.BENCH_B_EVENTS ?? 1);
const BATCH = 500;

const PRODUCT = benchProduct('FAIR-SALMON', 'Salmon');
const LOCATION = benchLocation('FAIR-DOCK', 'Dock');

const commission = (lot: string, inline = false) => ({
  $type: 'commission',
  Id: `C-${lot}`,
  Location: inline ? LOCATION : { Id: LOCATION.Id },
  EventTime: '2024-03-01T10:00:00',
  EventTimeZone: '+00:00',
  ProductInstances: [{ Quantity: 10, LotSerial: lot, Product: inline ? PRODUCT : { Id: PRODUCT.Id } }],
});

async function post(
  apiUrl: string,
  path: string,
  key: string,
  events: unknown[],
): Promise<{ status: number; body: { batchId?: string } }> {
  const response = await fetch(`${apiUrl}${path}`, {
    method: 'POST',
    headers: { 'X-API-KEY': key, 'Content-Type': 'application/json' },
    body: JSON.stringify({ Events: events }),
  });
  return { status: response.status, body: (await response.json()) as { batchId?: string } };
}

/** B's ways in: the stack's API (its own worker runs the batch) and one whose batch the interactive worker runs. */
const PATHS = ['apiWorker', 'interactiveWorker'] as const;
type Path = (typeof PATHS)[number];

/** One of B's calls: its lot, the path it took, and when it was sent and answered (wall clock, to set beside the workflow history). */
interface Call {
  lot: string;
  path: Path;
  sentAt: number;
  answeredAt: number;
}

const msOf = (calls: Call[]) => calls.map((call) => call.answeredAt - call.sentAt).sort((a, b) => a - b);

const now = () => performance.timeOrigin + performance.now();

/**
 * B's calls, one at a time, each one event, answered when it is stored, in turns through each path's API
 * (`apiUrls`, by PATHS): back to back (`count` of them) or one every PACE_MS (`paced`: as many, or, beside a
 * burst, until it ends). Beside a burst, at least three and only while it lasts.
 */
async function oneEventCalls(
  apiUrls: Record<Path, string>,
  key: string,
  run: string,
  { count, paced, goOn = () => true }: { count: number; paced: boolean; goOn?: () => boolean },
): Promise<Call[]> {
  const calls: Call[] = [];
  const start = now();
  for (let i = 0; i < count && (i < 3 || goOn()); i++) {
    if (paced) await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + i * PACE_MS - now())));
    if (i >= 3 && !goOn()) break; // the burst ended during the pause
    const lot = `B-${run}-${i}`;
    const path = PATHS[i % PATHS.length];
    const sentAt = now();
    const events = Array.from({ length: B_EVENTS }, (_, j) => commission(j ? `${lot}-${j}` : lot));
    const answer = await post(apiUrls[path], '/Integration/Events', key, events);
    if (answer.status !== 200) throw new Error(`B's call answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    calls.push({ lot, path, sentAt, answeredAt: now() });
  }
  return calls;
}

/** Where B's calls waited, slowest first: their workflows' histories (bench/lib/where-waited.ts). */
async function waited(pool: Pool, temporal: Client, calls: Call[]) {
  const slowestFirst = [...calls].sort((a, b) => b.answeredAt - b.sentAt - (a.answeredAt - a.sentAt));
  return Promise.all(
    slowestFirst.map(async (call) => {
      const { rows } = await pool.query<{ workflow_id: string }>(
        `SELECT b.workflow_id FROM events e JOIN batches b ON b.id = e.batch_id WHERE e.external_event_id = $1`,
        [`C-${call.lot}`],
      );
      return { path: call.path, ...(await whereWaited(temporal, { ...call, workflowId: rows[0].workflow_id })) };
    }),
  );
}

type Waited = Awaited<ReturnType<typeof whereWaited>>;

/** p50 and p95 over all of B's calls of each part of a call's time. */
const breakdown = (calls: Waited[]) => {
  const of = (part: (call: Waited) => number) => latencyMs(calls.map(part).sort((a, b) => a - b));
  return {
    inApiBeforeStart: of((c) => c.inApiBeforeStartMs),
    workflowTaskWait: of((c) => c.workflowTaskWaitMs),
    activityWait: of((c) => c.activityWaitMs),
    run: of((c) => c.runMs),
  };
};

/** CPU milliseconds so far: the stack's processes by role (the second API among them), and this bench's own (its HTTP clients). */
function cpuNow(processes: StackProcesses): Record<Role | 'bench', number> {
  const { user, system } = process.cpuUsage();
  return { ...cpuMs(processes), bench: Math.round((user + system) / 1000) };
}

/** A's burst: every batch queued at once (async), then the time until the last one is finished. */
async function burst(
  apiUrl: string,
  processes: StackProcesses,
  pool: Pool,
  key: string,
  run: string,
  during?: (goOn: () => boolean) => Promise<Call[]>,
) {
  const cpuBefore = cpuNow(processes);
  const started = performance.now();
  const batches = Array.from({ length: Math.ceil(N / BATCH) }, (_, b) =>
    Array.from({ length: Math.min(BATCH, N - b * BATCH) }, (_, i) => commission(`A-${run}-${b}-${i}`)),
  );
  // Queued as fast as the API takes them (8 at a time), so the burst is a backlog, not a trickle.
  const batchIds: string[] = [];
  let next = 0;
  const sender = async () => {
    while (next < batches.length) {
      const answer = await post(apiUrl, '/Integration/Events/async', key, batches[next++]);
      if (answer.status !== 202 || !answer.body.batchId)
        throw new Error(`A's batch answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      batchIds.push(answer.body.batchId);
    }
  };
  await Promise.all(Array.from({ length: 8 }, sender));
  const queuedMs = performance.now() - started;
  // B's calls run beside the wait, and only while A's burst is unfinished: A's time is its own.
  let open = true;
  const beside = during?.(() => open);
  for (;;) {
    const { rows } = await pool.query<{ open: string }>(
      `SELECT count(*) AS open FROM batches WHERE id = ANY($1) AND status NOT IN ('Completed', 'Failed')`,
      [batchIds],
    );
    if (rows[0].open === '0') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  open = false;
  const seconds = (performance.now() - started) / 1000;
  const cpu = usedBetween(cpuBefore, cpuNow(processes));
  const cpuTotalMs = totalMs(cpu);
  return {
    eventsPerSecond: round(N / seconds),
    queuedMs: Math.round(queuedMs),
    seconds: round(seconds),
    cpuMs: cpu,
    // Of what the machine's cores could give in the burst's time.
    busyShare: round(cpuTotalMs / (seconds * 1000 * os.availableParallelism()), 3),
    cpuTotalMs,
    beside: await beside,
  };
}

/** B's calls' latency by path and in all, idle and beside a burst, and the ratio of their p95s. */
function latencies(idle: Call[], during: Call[]) {
  const of = (calls: Call[]) => {
    const [idleMs, duringMs] = [
      msOf(calls.filter((c) => idle.includes(c))),
      msOf(calls.filter((c) => during.includes(c))),
    ];
    return {
      idle: latencyMs(idleMs),
      duringABurst: latencyMs(duringMs),
      calls: { idle: idleMs.length, duringABurst: duringMs.length },
      p95DuringOverIdle: round(latencyMs(duringMs).p95 / Math.max(1, latencyMs(idleMs).p95), 2),
    };
  };
  const all = [...idle, ...during];
  return {
    all: of(all),
    ...Object.fromEntries(PATHS.map((path) => [path, of(all.filter((call) => call.path === path))])),
  };
}

/** A's rate beside B's calls over its rate alone, split into the CPU B's calls added and how busy the cores were kept. */
const share = (alone: Awaited<ReturnType<typeof burst>>, withB: Awaited<ReturnType<typeof burst>>) => ({
  aRateWithBOverAlone: round(withB.eventsPerSecond / alone.eventsPerSecond, 2),
  // Exactly the product of these two: only the second is the scheduling's; the first is B's work itself.
  cpuAloneOverWithB: round(alone.cpuTotalMs / withB.cpuTotalMs, 3),
  busyWithBOverAlone: round(withB.busyShare / alone.busyShare, 3),
});

async function main(): Promise<object> {
  const stack = await startBenchStack();
  const { state } = stack;
  // B's other way in: small sync batches queued for the interactive worker, not run in the API.
  const second = await startExtraApi(state, { API_SYNC_WORKER: 'false' });
  const apiUrls: Record<Path, string> = { apiWorker: state.apiUrl, interactiveWorker: second.url };
  const processes = processesOf(state);
  processes.pids.api.push(second.child.pid!);
  const pool = new Pool({ connectionString: state.databaseUrl, max: 2 });
  const sequelize = createSequelize(state.databaseUrl, 2);
  const temporal = await connectTemporalClient(state.temporalAddress, 'default');
  try {
    const stamp = Date.now();
    const a = await createApiKey(`fair-a-${stamp}`, 'bench');
    const b = await createApiKey(`fair-b-${stamp}`, 'bench');
    const run = randomUUID().slice(0, 8);
    const load = os.loadavg();
    for (const { key } of [a, b])
      for (const url of [state.apiUrl, second.url]) {
        const warm = await post(url, '/Integration/Events', key, [
          commission(`W-${run}-${key.slice(-6)}-${url}`, true),
        ]);
        if (warm.status !== 200) throw new Error(`warm-up failed: ${JSON.stringify(warm.body)}`);
      }

    // A's batches run in the bulk worker, which nothing above has woken: its first burst cost it up to a
    // third more CPU than later ones (likely its code not yet optimised, its statements not yet prepared on
    // each connection), which would slow A alone only.
    const aBurst = (label: string, during?: (goOn: () => boolean) => Promise<Call[]>) =>
      burst(state.apiUrl, processes, pool, a.key, `${run}-${label}`, during);
    await aBurst('warm');
    const idle = await oneEventCalls(apiUrls, b.key, `${run}-idle`, { count: SINGLE, paced: false });
    const idlePaced = await oneEventCalls(apiUrls, b.key, `${run}-idle-paced`, { count: PACED, paced: true });
    const alone = await aBurst('alone');
    const backToBack = await aBurst('back-to-back', (goOn) =>
      oneEventCalls(apiUrls, b.key, `${run}-during`, { count: SINGLE, paced: false, goOn }),
    );
    const paced = await aBurst('paced', (goOn) =>
      oneEventCalls(apiUrls, b.key, `${run}-during-paced`, { count: Number.MAX_SAFE_INTEGER, paced: true, goOn }),
    );
    const during = backToBack.beside!;
    const duringWaited = await waited(pool, temporal, during);
    const idleWaited = await waited(pool, temporal, idle);
    const onPath = (calls: (Waited & { path: Path })[], path: Path) =>
      breakdown(calls.filter((call) => call.path === path));
    const lat = { backToBack: latencies(idle, during), paced: latencies(idlePaced, paced.beside!) };
    const burstOf = ({ beside: _beside, ...figures }: Awaited<ReturnType<typeof burst>>) => figures;
    return {
      bench: 'fairness',
      loadAverageAtStart: load.map((l) => round(l, 2)),
      loadAverageAtEnd: os.loadavg().map((l) => round(l, 2)),
      events: N,
      bEventsPerCall: B_EVENTS,
      bOneEventSyncMs: lat,
      bP95DuringOverIdle: { backToBack: lat.backToBack.all.p95DuringOverIdle, paced: lat.paced.all.p95DuringOverIdle },
      aBurst: { alone: burstOf(alone), withBackToBackB: burstOf(backToBack), withPacedB: burstOf(paced) },
      aShare: { withBackToBackB: share(alone, backToBack), withPacedB: share(alone, paced) },
      targets: { bP95DuringOverIdle: '<= 3 (both)', aRateWithPacedBOverAlone: '>= 0.9' },
      bWhereTheTimeWentMs: Object.fromEntries(
        PATHS.map((path) => [path, { idle: onPath(idleWaited, path), duringABurst: onPath(duringWaited, path) }]),
      ),
      bSlowestDuringABurst: duringWaited.slice(0, 3),
      bSlowestIdle: idleWaited.slice(0, 1),
    };
  } finally {
    await pool.end();
    await sequelize.close();
    await temporal.connection.close();
    await stopChild(second.child, 'SIGTERM', 5000);
    await stack.stop();
  }
}

runBench(main);
