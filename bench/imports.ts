/**
 * `npm run bench:imports` (part of `npm run bench`): a 10,000-row commission CSV through
 * POST /Integration/Imports beside the same number of commission events through POST /Integration/Events
 * (batches of 1,000, the import's chunk size, BENCH_CLIENTS at once), on one stack in the same run.
 * The import's time runs from the upload to its status Completed: reading and checking the file while
 * storing its chunks' batches (the upload), then the batches' pipeline.
 *
 *   BENCH_IMPORT_ROWS  rows of the file and events of the batch run (default 10000)
 *   BENCH_CLIENTS      concurrent batch requests (default 4)
 *   BENCH_ROUNDS       rounds of both paths, the order alternating (batch first, then import first; default 2),
 *                      so a load that comes or goes during the run weighs on both
 *   BENCH_POLL_MS      the import's status polling interval (default 50)
 *
 * Prints one JSON object: events/s of each path (each round's, and over all rounds), the import's share of
 * the batch endpoint's, the load average, and where each path's time went, from the rows' timestamps:
 * the upload, the import's workflow start to its first batch's (or, for code with a split step, that step
 * and from its end to the first batch's start), the batches (first start to last done, and the sum of
 * their runs: near the span when they run one after another, near span × clients side by side), and the
 * wait from the last batch done to the client seeing Completed (the status polling).
 */
import fs from 'node:fs';
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createApiKey } from '../db/repositories/accounts';
import { Client, Connection } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time';
import type { Sequelize } from 'sequelize';
import { createSequelize } from '../db/sequelize';
import { startBenchStack } from './lib/stack';
import { round, runBench } from './lib/report';
import { benchLocation, benchProduct } from './lib/master-data';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const BATCH = 1000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 50);

const PRODUCT = benchProduct('BENCH-COD', 'Cod');
const LOCATION = benchLocation('BENCH-VESSEL', 'Vessel');

const commission = (id: string, lot: string) => ({
  $type: 'commission',
  Id: id,
  Location: { Id: LOCATION.Id },
  EventTime: '2024-03-01T10:00:00',
  EventTimeZone: '+00:00',
  ProductInstances: [{ Quantity: 10, LotSerial: lot, Product: { Id: PRODUCT.Id } }],
});

async function postEvents(api: string, key: string, events: unknown[]): Promise<void> {
  const response = await fetch(`${api}/Integration/Events`, {
    method: 'POST',
    headers: { 'X-API-KEY': key, 'Content-Type': 'application/json' },
    body: JSON.stringify({ Events: events }),
  });
  if (response.status !== 200)
    throw new Error(`events refused: HTTP ${response.status} ${(await response.text()).slice(0, 500)}`);
}

/** Where a set of batches' time went, from their rows: first start to last done, and the sum of their runs. */
interface BatchSpan {
  count: number;
  firstStartedAt: Date;
  lastCompletedAt: Date;
  spanSeconds: number;
  sumOfRunsSeconds: number;
}

async function batchSpan(sequelize: Sequelize, where: string, params: unknown[]): Promise<BatchSpan> {
  const [rows] = (await sequelize.query(
    `SELECT count(*)::int AS count, min(started_at) AS first, max(completed_at) AS last,
            extract(epoch FROM max(completed_at) - min(started_at))::float AS span,
            extract(epoch FROM sum(completed_at - started_at))::float AS runs
       FROM batches WHERE ${where}`,
    { bind: params },
  )) as [{ count: number; first: Date; last: Date; span: number; runs: number }[], unknown];
  const [row] = rows;
  return {
    count: row.count,
    firstStartedAt: new Date(row.first),
    lastCompletedAt: new Date(row.last),
    spanSeconds: row.span,
    sumOfRunsSeconds: row.runs,
  };
}

const spanReport = (span: BatchSpan) => ({
  batches: span.count,
  firstStartToLastDoneSeconds: round(span.spanSeconds, 2),
  sumOfBatchRunsSeconds: round(span.sumOfRunsSeconds, 2),
});

async function batchEndpoint(
  api: string,
  key: string,
  run: string,
  sequelize: Sequelize,
  accountId: string,
): Promise<{ seconds: number; eventsPerSecond: number; batches: object }> {
  const batches = Array.from({ length: Math.ceil(ROWS / BATCH) }, (_, b) =>
    Array.from({ length: Math.min(BATCH, ROWS - b * BATCH) }, (_, i) =>
      commission(`B-${run}-${b}-${i}`, `B-${run}-${b}-${i}`),
    ),
  );
  const since = new Date();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < batches.length) await postEvents(api, key, batches[next++]);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const span = await batchSpan(sequelize, 'account_id = $1 AND submitted_at >= $2', [accountId, since]);
  return { seconds, eventsPerSecond: ROWS / seconds, batches: spanReport(span) };
}

/**
 * The import's workflow as its history has it: its start, and its split step (waiting for a worker, then
 * running) when it has one (an import of events has none: its upload stored its batches).
 */
async function importRun(temporal: Client, importId: string) {
  const { events } = await temporal.workflow.getHandle(`import-${importId}`).fetchHistory();
  const at = (e: (typeof events & object)[number]) => tsToMs(e.eventTime);
  const all = events ?? [];
  const scheduled = all.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'splitImport');
  const started = all.find((e) => e.activityTaskStartedEventAttributes);
  const completed = all.find((e) => e.activityTaskCompletedEventAttributes);
  return {
    startedAt: at(all[0]),
    split: scheduled
      ? {
          scheduledToStartSeconds: (at(started!) - at(scheduled)) / 1000,
          runSeconds: (at(completed!) - at(started!)) / 1000,
          completedAt: at(completed!),
        }
      : null,
  };
}

async function importPath(api: string, key: string, run: string, sequelize: Sequelize, temporal: Client) {
  const lines = [
    'Id,Location.Id,EventTime,EventTimeZone,ProductInstances.Quantity,ProductInstances.LotSerial,ProductInstances.Product.Id',
  ];
  for (let i = 0; i < ROWS; i++)
    lines.push(`I-${run}-${i},${LOCATION.Id},2024-03-01T10:00:00,+00:00,10,I-${run}-${i},${PRODUCT.Id}`);
  const text = `${lines.join('\n')}\n`;
  const form = new FormData();
  form.set('kind', 'commission');
  form.set('file', new Blob([text], { type: 'text/csv' }), 'commission.csv');
  const started = performance.now();
  const response = await fetch(`${api}/Integration/Imports`, {
    method: 'POST',
    headers: { 'X-API-KEY': key },
    body: form,
  });
  const accepted = (await response.json()) as { importId: string; status: string; errors: unknown[] };
  if (response.status !== 202 || accepted.status === 'Failed')
    throw new Error(`import refused: HTTP ${response.status} ${JSON.stringify(accepted).slice(0, 500)}`);
  const uploadSeconds = (performance.now() - started) / 1000;
  let status = accepted.status;
  // Polled every BENCH_POLL_MS: the batch endpoint's time ends with its answer, this one with the poll that
  // sees Completed, so a coarse poll would add up to its interval to the import's time.
  for (const deadline = Date.now() + 600_000; status !== 'Completed' && status !== 'Failed';) {
    if (Date.now() > deadline) throw new Error(`import ${accepted.importId} still ${status} after 10 minutes`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const body = (await (
      await fetch(`${api}/Integration/Imports/${accepted.importId}`, { headers: { 'X-API-KEY': key } })
    ).json()) as { status: string };
    status = body.status;
  }
  const seen = new Date();
  const seconds = (performance.now() - started) / 1000;
  if (status !== 'Completed') throw new Error(`import ${accepted.importId} ended ${status}`);
  const { startedAt, split } = await importRun(temporal, accepted.importId);
  const span = await batchSpan(sequelize, 'id IN (SELECT batch_id FROM import_batches WHERE import_id = $1)', [
    accepted.importId,
  ]);
  return {
    fileBytes: Buffer.byteLength(text),
    seconds,
    eventsPerSecond: ROWS / seconds,
    whereTheTimeWent: {
      uploadSeconds: round(uploadSeconds, 2),
      ...(split
        ? {
            splitStepWaitSeconds: round(split.scheduledToStartSeconds, 2),
            splitStepSeconds: round(split.runSeconds, 2),
            splitDoneToFirstBatchStartSeconds: round((span.firstStartedAt.getTime() - split.completedAt) / 1000, 2),
          }
        : { workflowStartToFirstBatchStartSeconds: round((span.firstStartedAt.getTime() - startedAt) / 1000, 2) }),
      ...spanReport(span),
      lastBatchDoneToCompletedSeenSeconds: round((seen.getTime() - span.lastCompletedAt.getTime()) / 1000, 2),
    },
  };
}

async function main(): Promise<object> {
  const stack = await startBenchStack();
  // The models the key is created with; the rows the figures are read from.
  const sequelize = createSequelize(stack.state.databaseUrl, 2);
  const connection = await Connection.connect({ address: stack.state.temporalAddress });
  const temporal = new Client({ connection });
  try {
    const api = stack.state.apiUrl;
    const { key, account } = await createApiKey(`bench-imports-${Date.now()}`, 'bench');
    const load = os.loadavg()[0];
    const warm = randomUUID().slice(0, 8);
    // Master data once, inline, as an integrator’s first batch would; then the two paths, alternating.
    await postEvents(api, key, [
      {
        ...commission(`W-${warm}`, `W-${warm}`),
        Location: LOCATION,
        ProductInstances: [{ Quantity: 1, LotSerial: `W-${warm}`, Product: PRODUCT }],
      },
    ]);
    const rounds = [];
    let batchSeconds = 0;
    let importSeconds = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const run = randomUUID().slice(0, 8);
      const batchFirst = r % 2 === 0;
      const batch = batchFirst ? await batchEndpoint(api, key, run, sequelize, account.id) : undefined;
      const imported = await importPath(api, key, run, sequelize, temporal);
      const batchAfter = batch ?? (await batchEndpoint(api, key, run, sequelize, account.id));
      batchSeconds += batchAfter.seconds;
      importSeconds += imported.seconds;
      rounds.push({
        order: batchFirst ? 'batch endpoint, then import' : 'import, then batch endpoint',
        loadAverage: round(os.loadavg()[0], 2),
        batchEndpoint: {
          ...batchAfter,
          seconds: round(batchAfter.seconds, 2),
          eventsPerSecond: round(batchAfter.eventsPerSecond),
        },
        import: { ...imported, seconds: round(imported.seconds, 2), eventsPerSecond: round(imported.eventsPerSecond) },
        importShareOfBatchRate: round(imported.eventsPerSecond / batchAfter.eventsPerSecond, 2),
      });
    }
    return {
      bench: 'imports',
      events: ROWS,
      clients: CLIENTS,
      batchSize: BATCH,
      loadAverageAtStart: round(load, 2),
      loadAverageAtEnd: round(os.loadavg()[0], 2),
      rounds,
      batchEndpointEventsPerSecond: round((ROWS * ROUNDS) / batchSeconds),
      importEventsPerSecond: round((ROWS * ROUNDS) / importSeconds),
      importShareOfBatchRate: round(batchSeconds / importSeconds, 2),
    };
  } finally {
    await connection.close();
    await sequelize.close();
    await stack.stop();
    if (!process.env.KEEP_BENCH_STACK) fs.rmSync(stack.dir, { recursive: true, force: true });
  }
}

runBench(main);
