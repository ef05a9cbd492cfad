/**
 * `npm run bench:imports` (part of `npm run bench`): a 10,000-row commission CSV through
 * POST /Integration/Imports beside the same number of commission events through POST /Integration/Events
 * (batches of 1,000, the import's chunk size, BENCH_CLIENTS at once), on one stack in the same run.
 * The import's time runs from the upload to its status Completed: reading, checking, storing the file,
 * splitting it into batches and the batches' pipeline.
 *
 *   BENCH_IMPORT_ROWS  rows of the file and events of the batch run (default 10000)
 *   BENCH_CLIENTS      concurrent batch requests (default 4)
 *
 * Prints one JSON object: events/s of each path and the import's share of the batch endpoint's.
 */
import fs from 'node:fs';
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createApiKey } from '../db/repositories/accounts';
import { waitFor } from '../platform/net';
import { startStack } from '../test/helpers/stack';
import { round, runBench } from './lib/report';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const BATCH = 1000;

const PRODUCT = {
  Id: 'BENCH-COD',
  Details: { Name: 'Cod', SimpleUnitOfMeasurement: 'kg', SharingPolicy: 'Open', ProductIdentifierType: 'Lot' },
};
const LOCATION = {
  Id: 'BENCH-VESSEL',
  Details: { Name: 'Vessel', TradePartner: { Id: 'SELF', Name: 'Bench Co', ConnectionType: 'SELF' } },
};

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

async function batchEndpoint(api: string, key: string, run: string): Promise<number> {
  const batches = Array.from({ length: Math.ceil(ROWS / BATCH) }, (_, b) =>
    Array.from({ length: Math.min(BATCH, ROWS - b * BATCH) }, (_, i) =>
      commission(`B-${run}-${b}-${i}`, `B-${run}-${b}-${i}`),
    ),
  );
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < batches.length) await postEvents(api, key, batches[next++]);
    }),
  );
  return (performance.now() - started) / 1000;
}

async function importPath(
  api: string,
  key: string,
  run: string,
): Promise<{ seconds: number; uploadSeconds: number; bytes: number }> {
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
  await waitFor('the import to finish', 600_000, async () => {
    const body = (await (
      await fetch(`${api}/Integration/Imports/${accepted.importId}`, { headers: { 'X-API-KEY': key } })
    ).json()) as { status: string };
    status = body.status;
    return status === 'Completed' || status === 'Failed';
  });
  if (status !== 'Completed') throw new Error(`import ${accepted.importId} ended ${status}`);
  return { seconds: (performance.now() - started) / 1000, uploadSeconds, bytes: Buffer.byteLength(text) };
}

async function main(): Promise<object> {
  const stack = await startStack({ LOG_LEVEL: 'warn' });
  try {
    const api = stack.state.apiUrl;
    const { key } = await createApiKey(`bench-imports-${Date.now()}`, 'bench');
    const run = randomUUID().slice(0, 8);
    const load = os.loadavg()[0];
    // Master data once, inline, as an integrator’s first batch would; then the batch path, then the import.
    await postEvents(api, key, [
      {
        ...commission(`W-${run}`, `W-${run}`),
        Location: LOCATION,
        ProductInstances: [{ Quantity: 1, LotSerial: `W-${run}`, Product: PRODUCT }],
      },
    ]);
    const batchSeconds = await batchEndpoint(api, key, run);
    const imported = await importPath(api, key, run);
    const batchRate = ROWS / batchSeconds;
    const importRate = ROWS / imported.seconds;
    return {
      bench: 'imports',
      events: ROWS,
      loadAverageAtStart: round(load, 2),
      batchEndpoint: {
        clients: CLIENTS,
        batchSize: BATCH,
        seconds: round(batchSeconds, 2),
        eventsPerSecond: round(batchRate),
      },
      import: {
        fileBytes: imported.bytes,
        uploadSeconds: round(imported.uploadSeconds, 2),
        seconds: round(imported.seconds, 2),
        eventsPerSecond: round(importRate),
      },
      importShareOfBatchRate: round(importRate / batchRate, 2),
    };
  } finally {
    await stack.stop();
    if (!process.env.KEEP_BENCH_STACK) fs.rmSync(stack.dir, { recursive: true, force: true });
  }
}

runBench(main);
