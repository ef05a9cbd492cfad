/**
 * `npm run bench:epcis` (and the last part of `npm run bench`): EPCIS capture through the whole
 * pipeline (POST /epcis/capture → GS1 schema → translation → processEventBatch → PostgreSQL) beside the
 * batch endpoint (POST /Integration/Events) with the same events, on a stack of its own.
 *
 *   BENCH_EVENTS   events through each path (default 20000; half commissioning, half shipping)
 *   BENCH_CLIENTS  concurrent HTTP clients (default 4)
 *
 * Documents hold 500 ObjectEvents (LGTIN quantities at one SGLN); a capture counts once its job has
 * finished (GET /epcis/capture/{captureID} polled). Prints one JSON object.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { createApiKey } from '../db/repositories/accounts';
import { createSequelize } from '../db/sequelize';
import { checkDigit } from '../domain/epcis/identifiers';
import { startStack } from '../test/helpers/stack';
import { percentile, round, runBench } from './lib/report';

const N = Number(process.env.BENCH_EVENTS ?? 20000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const DOCUMENT = 500;

const COMPANY_PREFIX = '9521141';
const ITEM_REFERENCE = '012345';
const GTIN_BODY = ITEM_REFERENCE[0] + COMPANY_PREFIX + ITEM_REFERENCE.slice(1);
const GTIN = GTIN_BODY + checkDigit(GTIN_BODY);
const SGLN = `urn:epc:id:sgln:${COMPANY_PREFIX}.00001.0`;


/** One document: 250 lots commissioned, each shipped in part a day later (the batch bench's shape). */
function documentOf(d: number, run: string) {
  const lots = Array.from({ length: DOCUMENT / 2 }, (_, i) => `${run}-${d}-${i}`);
  const event = (lot: string, action: 'ADD' | 'OBSERVE', bizStep: string, day: number, quantity: number) => ({
    type: 'ObjectEvent',
    eventID: `urn:uuid:${randomUUID()}`,
    eventTime: `2024-03-0${day}T10:00:00.000Z`,
    eventTimeZoneOffset: '+00:00',
    action,
    bizStep,
    epcList: [],
    quantityList: [{ epcClass: `urn:epc:class:lgtin:${COMPANY_PREFIX}.${ITEM_REFERENCE}.${lot}`, quantity, uom: 'KGM' }],
    readPoint: { id: SGLN },
    bizLocation: { id: SGLN },
  });
  return {
    '@context': ['https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld'],
    type: 'EPCISDocument',
    schemaVersion: '2.0',
    creationDate: '2024-03-01T00:00:00Z',
    epcisBody: {
      eventList: [...lots.map((lot) => event(lot, 'ADD', 'commissioning', 1, 10)), ...lots.map((lot) => event(lot, 'OBSERVE', 'shipping', 2, 3))],
    },
  };
}

/** The same events in the batch-style shape, for the batch endpoint's figure. */
function batchOf(d: number, run: string) {
  const lots = Array.from({ length: DOCUMENT / 2 }, (_, i) => `B-${run}-${d}-${i}`);
  const line = (lot: string, quantity: number) => ({ Quantity: quantity, LotSerial: lot, Product: { Id: `https://id.gs1.org/01/${GTIN}` } });
  const location = { Id: `https://id.gs1.org/414/${COMPANY_PREFIX}00001${checkDigit(`${COMPANY_PREFIX}00001`)}` };
  return [
    ...lots.map((lot) => ({ $type: 'commission', Id: `C-${lot}`, Location: location, EventTime: '2024-03-01T10:00:00', EventTimeZone: '+00:00', ProductInstances: [line(lot, 10)] })),
    ...lots.map((lot) => ({ $type: 'ship', Id: `S-${lot}`, Location: location, DestinationLocation: location, EventTime: '2024-03-02T10:00:00', EventTimeZone: '+00:00', ProductInstances: [line(lot, 3)] })),
  ];
}

/** How long POST /epcis/capture took to answer 202 (validation, translation, storing the batch): the API's share. */
const acceptLatencies: number[] = [];

async function capture(apiUrl: string, key: string, document: unknown): Promise<void> {
  const t0 = performance.now();
  const response = await fetch(`${apiUrl}/epcis/capture`, { method: 'POST', headers: { 'X-API-KEY': key, 'Content-Type': 'application/ld+json' }, body: JSON.stringify(document) });
  if (response.status !== 202) throw new Error(`capture: HTTP ${response.status} ${(await response.text()).slice(0, 500)}`);
  acceptLatencies.push(performance.now() - t0);
  const location = response.headers.get('location')!;
  for (;;) {
    const job = (await (await fetch(`${apiUrl}${location}`, { headers: { 'X-API-KEY': key } })).json()) as { running: boolean; success: boolean; errors: unknown[] };
    if (!job.running) {
      if (!job.success) throw new Error(`capture job ${location} failed: ${JSON.stringify(job.errors).slice(0, 500)}`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function postBatch(apiUrl: string, key: string, events: unknown[]): Promise<void> {
  const response = await fetch(`${apiUrl}/Integration/Events`, { method: 'POST', headers: { 'X-API-KEY': key, 'Content-Type': 'application/json' }, body: JSON.stringify({ Events: events }) });
  if (response.status !== 200) throw new Error(`batch: HTTP ${response.status} ${(await response.text()).slice(0, 500)}`);
}

/** Runs `count` requests with CLIENTS concurrent clients; seconds taken and per-request latencies. */
async function run(count: number, send: (i: number) => Promise<void>): Promise<{ seconds: number; latencies: number[] }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        await send(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, latencies: latencies.sort((a, b) => a - b) };
}

const figures = (events: number, result: { seconds: number; latencies: number[] }) => ({
  seconds: round(result.seconds, 2),
  eventsPerSecond: Math.round(events / result.seconds),
  requestLatencyMs: { p50: Math.round(percentile(result.latencies, 50)), p95: Math.round(percentile(result.latencies, 95)) },
});

async function main(): Promise<object> {
  const stack = await startStack({ LOG_LEVEL: 'warn' });
  // The models the key is created with.
  const sequelize = createSequelize(stack.state.databaseUrl, 2);
  try {
    const { key } = await createApiKey(`bench-epcis-${Date.now()}`, 'bench');
    const tag = randomUUID().slice(0, 8);
    // The product and location once, as a first capture creates them.
    await capture(stack.state.apiUrl, key, { ...documentOf(-1, tag), epcisBody: { eventList: documentOf(-1, tag).epcisBody.eventList.slice(0, 1) } });

    const documents = Math.ceil(N / DOCUMENT);
    const epcis = await run(documents, (d) => capture(stack.state.apiUrl, key, documentOf(d, tag)));
    const batch = await run(documents, (d) => postBatch(stack.state.apiUrl, key, batchOf(d, tag)));
    const events = documents * DOCUMENT;
    return {
      events,
      documentSize: DOCUMENT,
      clients: CLIENTS,
      cpus: os.cpus().length,
      epcisCapture: {
        ...figures(events, epcis),
        acceptLatencyMs: (() => {
          const sorted = acceptLatencies.slice(1).sort((a, b) => a - b);
          return { p50: Math.round(percentile(sorted, 50)), p95: Math.round(percentile(sorted, 95)) };
        })(),
      },
      batchEndpoint: figures(events, batch),
      captureToBatchRatio: round(epcis.seconds ? batch.seconds / epcis.seconds : 0, 3),
    };
  } finally {
    await sequelize.close();
    await stack.stop();
    if (!process.env.KEEP_BENCH_STACK) fs.rmSync(stack.dir, { recursive: true, force: true });
  }
}

runBench(main);
