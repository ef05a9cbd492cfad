/**
 * `npm run bench:epcis` (and the last part of `npm run bench`): EPCIS capture through the whole
 * pipeline (POST /epcis/capture → GS1 schema → translation → processEventBatch → PostgreSQL), the same
 * documents captured as EPCIS 2.0 XML (parsing and GS1's XSD on top), and the batch endpoint
 * (POST /Integration/Events) with the same events, on a stack of its own.
 *
 *   BENCH_EVENTS   events through each path (default 20000; half commissioning, half shipping)
 *   BENCH_CLIENTS  concurrent HTTP clients (default 4)
 *   BENCH_JOB_WAIT the Prefer: wait each GET of a capture job sends (default 30 seconds; 0 polls every 100 ms)
 *   BENCH_WARM_DOCUMENTS documents each path takes first, unmeasured, in accounts of their own (default 2)
 *   BENCH_ROUNDS   rounds the paths take turns in, each path first in one (default 3)
 *
 * Documents hold 500 ObjectEvents (LGTIN quantities at one SGLN); a capture counts once its job has
 * finished (GET /epcis/capture/{captureID} with `Prefer: wait`, which answers once the job has finished;
 * asked again after 100 ms while it answers the job running). Prints one JSON object: for each path its
 * rate, where the time went per batch (CPU by process, statements by step, Temporal RPCs), for captures
 * the polls per document, and PostgreSQL COPY of exactly the rows that path wrote, the floor of storing
 * them here.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { Pool } from 'pg';
import { createApiKey } from '../db/repositories/accounts';
import { createSequelize } from '../db/sequelize';
import { checkDigit } from '../domain/epcis/identifiers';
import type { RuntimeState } from '../supervisor/state';
import { epcisDocumentXml } from '../domain/epcis/xml/to-xml';
import { startBenchStack } from './lib/stack';
import { breakdownOf, medianBreakdown } from './lib/history';
import { copyExactRows, perBatch, snapshot, type CopyFloor } from './lib/pipeline';
import { totalMs } from './lib/processes';
import { latencyMs, round, runBench } from './lib/report';
import fs from 'node:fs';
import os from 'node:os';

const N = Number(process.env.BENCH_EVENTS ?? 20000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const DOCUMENT = 500;
/** Documents each path takes, unmeasured, before the measured ones (BENCH_WARM_DOCUMENTS). */
const WARM_DOCUMENTS = Number(process.env.BENCH_WARM_DOCUMENTS ?? 2);
/** How long each GET of a capture job asks the API to wait for the job to finish (RFC 7240 Prefer: wait); 0 polls. */
const JOB_WAIT_SECONDS = Number(process.env.BENCH_JOB_WAIT ?? 30);
/**
 * Rounds the paths take turns in (BENCH_ROUNDS), the order rotated: measured whole one after another, the
 * first path ran with processes less warm, the last with larger tables (Dec 7: JSON-LD capture first cost
 * ~20 ms more of the worker's CPU per document than the same run last).
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

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
    quantityList: [
      { epcClass: `urn:epc:class:lgtin:${COMPANY_PREFIX}.${ITEM_REFERENCE}.${lot}`, quantity, uom: 'KGM' },
    ],
    readPoint: { id: SGLN },
    bizLocation: { id: SGLN },
  });
  return {
    '@context': ['https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld'],
    type: 'EPCISDocument',
    schemaVersion: '2.0',
    creationDate: '2024-03-01T00:00:00Z',
    epcisBody: {
      eventList: [
        ...lots.map((lot) => event(lot, 'ADD', 'commissioning', 1, 10)),
        ...lots.map((lot) => event(lot, 'OBSERVE', 'shipping', 2, 3)),
      ],
    },
  };
}

/** The same events in the batch-style shape, for the batch endpoint's figure. */
function batchOf(d: number, run: string) {
  const lots = Array.from({ length: DOCUMENT / 2 }, (_, i) => `B-${run}-${d}-${i}`);
  const line = (lot: string, quantity: number) => ({
    Quantity: quantity,
    LotSerial: lot,
    Product: { Id: `https://id.gs1.org/01/${GTIN}` },
  });
  const location = { Id: `https://id.gs1.org/414/${COMPANY_PREFIX}00001${checkDigit(`${COMPANY_PREFIX}00001`)}` };
  return [
    ...lots.map((lot) => ({
      $type: 'commission',
      Id: `C-${lot}`,
      Location: location,
      EventTime: '2024-03-01T10:00:00',
      EventTimeZone: '+00:00',
      ProductInstances: [line(lot, 10)],
    })),
    ...lots.map((lot) => ({
      $type: 'ship',
      Id: `S-${lot}`,
      Location: location,
      DestinationLocation: location,
      EventTime: '2024-03-02T10:00:00',
      EventTimeZone: '+00:00',
      ProductInstances: [line(lot, 3)],
    })),
  ];
}

/** The same document in EPCIS 2.0 XML, as a partner's system sends it. */
function xmlOf(document: ReturnType<typeof documentOf>): string {
  return epcisDocumentXml(document.epcisBody.eventList, document['@context'], {
    version: '2.0',
    cbvFormat: 'Always_URN',
    creationDate: document.creationDate,
  });
}

/**
 * How long POST /epcis/capture took to answer 202 (JSON-LD: schema, translation, storing the batch; XML:
 * parsing and GS1's XSD besides): the API's share, by body format.
 */
const acceptLatencies: Record<'json' | 'xml', number[]> = { json: [], xml: [] };
/** GET /epcis/capture/{captureID} requests, by body format: each costs the API a request (key check, job row). */
const polls: Record<'json' | 'xml', number> = { json: 0, xml: 0 };

/** A document's body as the client sends it. */
const bodyOf = (document: ReturnType<typeof documentOf>, format: 'json' | 'xml'): string =>
  format === 'xml' ? xmlOf(document) : JSON.stringify(document);

async function capture(apiUrl: string, key: string, body: string, format: 'json' | 'xml'): Promise<void> {
  const t0 = performance.now();
  const contentType = format === 'xml' ? 'application/xml' : 'application/ld+json';
  const response = await fetch(`${apiUrl}/epcis/capture`, {
    method: 'POST',
    headers: { 'X-API-KEY': key, 'Content-Type': contentType },
    body,
  });
  if (response.status !== 202)
    throw new Error(`capture: HTTP ${response.status} ${(await response.text()).slice(0, 500)}`);
  acceptLatencies[format].push(performance.now() - t0);
  const location = response.headers.get('location')!;
  for (;;) {
    polls[format]++;
    const job = (await (
      await fetch(`${apiUrl}${location}`, {
        headers: { 'X-API-KEY': key, ...(JOB_WAIT_SECONDS ? { Prefer: `wait=${JOB_WAIT_SECONDS}` } : {}) },
      })
    ).json()) as {
      running: boolean;
      success: boolean;
      errors: unknown[];
    };
    if (!job.running) {
      if (!job.success) throw new Error(`capture job ${location} failed: ${JSON.stringify(job.errors).slice(0, 500)}`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const batchBodyOf = (events: unknown[]): string => JSON.stringify({ Events: events });

async function postBatch(apiUrl: string, key: string, body: string): Promise<void> {
  const response = await fetch(`${apiUrl}/Integration/Events`, {
    method: 'POST',
    headers: { 'X-API-KEY': key, 'Content-Type': 'application/json' },
    body,
  });
  if (response.status !== 200)
    throw new Error(`batch: HTTP ${response.status} ${(await response.text()).slice(0, 500)}`);
}

/** One path's requests, counted over its rounds: seconds, per-request latencies, per-batch costs. */
interface PathRun {
  seconds: number;
  latencies: number[];
  perBatch: ReturnType<typeof perBatch>;
}

/**
 * Sends the bodies with CLIENTS concurrent clients: seconds taken, per-request latencies, per-batch costs.
 * The bodies are written before the clock starts: the client shares the cores with the service, and
 * writing a 500-event document as XML costs it about 5 ms of CPU against JSON's 0.4.
 */
async function run(
  state: RuntimeState,
  bodies: readonly string[],
  send: (body: string) => Promise<void>,
): Promise<PathRun> {
  const count = bodies.length;
  const latencies: number[] = [];
  let next = 0;
  const before = await snapshot(state);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        await send(bodies[i]);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { seconds, latencies, perBatch: perBatch(before, await snapshot(state), count) };
}

/** A path's rounds as one run: their seconds summed, latencies pooled, per-batch costs averaged (rounds of equal size). */
function joined(runs: readonly PathRun[]): PathRun {
  const mean = (pick: (r: PathRun) => Record<string, number>) => {
    const sum: Record<string, number> = {};
    for (const r of runs) for (const [k, v] of Object.entries(pick(r))) sum[k] = (sum[k] ?? 0) + v;
    return Object.fromEntries(Object.entries(sum).map(([k, v]) => [k, round(v / runs.length)]));
  };
  return {
    seconds: runs.reduce((sum, r) => sum + r.seconds, 0),
    latencies: runs.flatMap((r) => r.latencies).sort((a, b) => a - b),
    perBatch: {
      cpuMs: mean((r) => r.perBatch.cpuMs),
      postgresStatements: mean((r) => r.perBatch.postgresStatements),
      workerTemporalRpcs: mean((r) => r.perBatch.workerTemporalRpcs),
    },
  };
}

interface Run {
  db: Pool;
  temporal: Client;
  accountId: string;
}

/** A path's figures, its workflows' median history, and COPY of the rows it wrote (the account's batches of `mode` with a full document). */
async function figures({ db, temporal, accountId }: Run, mode: string, events: number, result: PathRun) {
  const { rows } = await db.query<{ id: string; workflow_id: string }>(
    'SELECT id, workflow_id FROM batches WHERE account_id = $1 AND mode = $2 AND event_count = $3',
    [accountId, mode, DOCUMENT],
  );
  const history = medianBreakdown(await Promise.all(rows.map((r) => breakdownOf(temporal, r.workflow_id))));
  const client = await db.connect();
  let copy: CopyFloor;
  try {
    copy = await copyExactRows(
      client,
      rows.map((r) => r.id),
      events,
    );
  } finally {
    client.release();
  }
  const rate = events / result.seconds;
  return {
    seconds: round(result.seconds, 2),
    eventsPerSecond: Math.round(rate),
    requestLatencyMs: latencyMs(result.latencies),
    perBatch: result.perBatch,
    history,
    copy,
    toCopyRatio: round(rate / copy.eventsPerSecond, 3),
  };
}

async function main(): Promise<object> {
  const stack = await startBenchStack();
  const { state } = stack;
  // The models the key is created with.
  const sequelize = createSequelize(state.databaseUrl, 2);
  const db = new Pool({ connectionString: state.databaseUrl, max: 2 });
  const connection = await Connection.connect({ address: state.temporalAddress });
  try {
    const { key, account } = await createApiKey(`bench-epcis-${Date.now()}`, 'bench');
    // XML captures go to an account of their own: a path's figures are its account's batches.
    const xmlAccount = await createApiKey(`bench-epcis-xml-${Date.now()}`, 'bench');
    const tag = randomUUID().slice(0, 8);
    const load = os.loadavg()[0];
    // The product and location once, as a first capture creates them.
    const first = {
      ...documentOf(-1, tag),
      epcisBody: { eventList: documentOf(-1, tag).epcisBody.eventList.slice(0, 1) },
    };
    await capture(state.apiUrl, key, bodyOf(first, 'json'), 'json');
    await capture(state.apiUrl, xmlAccount.key, bodyOf(first, 'xml'), 'xml');

    // Each path at full size, in accounts of their own, before anything is measured: the path that ran
    // first (JSON-LD capture) paid the processes' warm-up (JIT, caches). Without it a profile of a
    // 10,000-event run (Dec 6) put 164 ms of the worker's CPU on each JSON-LD document and 73 on each XML
    // one, the same work there; with it, 92 and 72 (load 35).
    const warm = await createApiKey(`bench-epcis-warm-${Date.now()}`, 'bench');
    const warmXml = await createApiKey(`bench-epcis-warm-xml-${Date.now()}`, 'bench');
    for (let d = 0; d < WARM_DOCUMENTS; d++) {
      await capture(state.apiUrl, warm.key, bodyOf(documentOf(d, `${tag}w`), 'json'), 'json');
      await capture(state.apiUrl, warmXml.key, bodyOf(documentOf(d, `${tag}w`), 'xml'), 'xml');
      await postBatch(state.apiUrl, warm.key, batchBodyOf(batchOf(d, `${tag}w`)));
    }
    for (const format of ['json', 'xml'] as const) acceptLatencies[format].splice(1);

    const perRound = Math.ceil(N / DOCUMENT / ROUNDS);
    const documents = perRound * ROUNDS;
    const firstPolls = { ...polls };
    const paths = {
      epcis: {
        body: (d: number) => bodyOf(documentOf(d, tag), 'json'),
        send: (body: string) => capture(state.apiUrl, key, body, 'json'),
      },
      xml: {
        body: (d: number) => bodyOf(documentOf(d, tag), 'xml'),
        send: (body: string) => capture(state.apiUrl, xmlAccount.key, body, 'xml'),
      },
      batch: {
        body: (d: number) => batchBodyOf(batchOf(d, tag)),
        send: (body: string) => postBatch(state.apiUrl, key, body),
      },
    };
    const names = Object.keys(paths) as (keyof typeof paths)[];
    const runs: Record<keyof typeof paths, PathRun[]> = { epcis: [], xml: [], batch: [] };
    for (let r = 0; r < ROUNDS; r++) {
      for (let p = 0; p < names.length; p++) {
        const name = names[(r + p) % names.length];
        const { body, send } = paths[name];
        const bodies = Array.from({ length: perRound }, (_, i) => body(r * perRound + i));
        runs[name].push(await run(state, bodies, send));
      }
    }
    const [epcis, xml, batch] = names.map((name) => joined(runs[name]));
    const pollsPerDocument = (format: 'json' | 'xml') => round((polls[format] - firstPolls[format]) / documents, 1);
    const events = documents * DOCUMENT;
    const accepted = (format: 'json' | 'xml') => acceptLatencies[format].slice(1).sort((a, b) => a - b);
    const stored: Run = { db, temporal: new Client({ connection }), accountId: account.id };
    return {
      events,
      documentSize: DOCUMENT,
      clients: CLIENTS,
      jobWaitSeconds: JOB_WAIT_SECONDS,
      rounds: ROUNDS,
      cpus: os.cpus().length,
      loadAverageAtStart: round(load, 2),
      epcisCapture: {
        ...(await figures(stored, 'epcis', events, epcis)),
        acceptLatencyMs: latencyMs(accepted('json')),
        pollsPerDocument: pollsPerDocument('json'),
      },
      // The same documents in EPCIS 2.0 XML: parsing, GS1's XSD and the mapping to JSON-LD on top.
      xmlCapture: {
        ...(await figures({ ...stored, accountId: xmlAccount.account.id }, 'epcis', events, xml)),
        acceptLatencyMs: latencyMs(accepted('xml')),
        pollsPerDocument: pollsPerDocument('xml'),
      },
      xmlToJsonRatio: round(xml.seconds ? epcis.seconds / xml.seconds : 0, 3),
      batchEndpoint: await figures(stored, 'sync', events, batch),
      captureToBatchRatio: round(epcis.seconds ? batch.seconds / epcis.seconds : 0, 3),
      // Both paths keep the cores busy, so their rates stand as their CPU per document does: the ratio
      // above is this one, give or take how busy each run kept the cores.
      captureToBatchCpuRatio: round(totalMs(batch.perBatch.cpuMs) / totalMs(epcis.perBatch.cpuMs), 3),
    };
  } finally {
    await connection.close();
    await db.end();
    await sequelize.close();
    await stack.stop();
    if (!process.env.KEEP_BENCH_STACK) fs.rmSync(stack.dir, { recursive: true, force: true });
  }
}

runBench(main);
