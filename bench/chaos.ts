/**
 * `npm run chaos`: SIGKILLs each part of the service under load, on a stack of its own per scenario,
 * and prints one JSON object: per scenario, batches tried, events lost and duplicated, batches stuck,
 * 5xx answers by status, elapsed time and `ok`. Progress goes to stderr. Exit code 1 when a scenario is
 * not ok.
 *
 *   CHAOS_SCENARIOS       comma-separated subset of worker,worker-local,api-local,postgres,temporal,api,consume,delivery,
 *                         junk-bodies,wrong-keys,neighbour-burst (default: all; worker-local and api-local kill inside
 *                         a small batch's local persist, an async one in the worker, a sync one in the API, in
 *                         batches of 10; junk-bodies and wrong-keys kill nothing: they flood refused requests beside
 *                         keyed ones; neighbour-burst kills nothing: one-event calls beside another account's burst)
 *   CHAOS_EVENTS          events per kill scenario (default 3000)
 *   CHAOS_BATCH           events per batch (default 500)
 *   CHAOS_CLIENTS         concurrent clients in the kill scenarios (default 3)
 *   CHAOS_CONSUMERS       clients shipping from one lot at once (default 50)
 *   CHAOS_UNITS           units in that lot (default 30)
 *   CHAOS_SETTLE_SECONDS  longest wait for open batches after the traffic (default 120)
 *   CHAOS_BURST_EVENTS    events of the neighbour's async burst in neighbour-burst (default 20000)
 *   KEEP_CHAOS_STACK      keep each stack's data directory
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildWorkflowBundle } from '../worker/bundle';
import { log } from './chaos/log';
import {
  NEIGHBOUR_BURST_EVENTS,
  runScenario,
  SCENARIOS,
  type ContentionOptions,
  type ScenarioName,
  type ScenarioOptions,
  type ScenarioReport,
} from './chaos/scenarios';
import { ChaosStack } from './chaos/stack';

const number = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
};

function chosen(): ScenarioName[] {
  const list = (process.env.CHAOS_SCENARIOS ?? SCENARIOS.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = list.filter((s) => !(SCENARIOS as readonly string[]).includes(s));
  if (unknown.length) throw new Error(`unknown scenario(s) ${unknown.join(', ')}; choose from ${SCENARIOS.join(', ')}`);
  return list as ScenarioName[];
}

let bundleDir: string | undefined;
const removeBundle = () => {
  if (bundleDir) fs.rmSync(bundleDir, { recursive: true, force: true });
};

async function main(): Promise<number> {
  const names = chosen();
  const started = Date.now();
  bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaos-bundle-'));
  try {
    log('bundling the workflows once for every stack');
    const env = { WORKFLOW_BUNDLE_PATH: await buildWorkflowBundle(path.join(bundleDir, 'workflow-bundle.js')) };
    const settleSeconds = number('CHAOS_SETTLE_SECONDS', 120);
    const options: ScenarioOptions = {
      events: number('CHAOS_EVENTS', 3000),
      batchSize: number('CHAOS_BATCH', 500),
      clients: number('CHAOS_CLIENTS', 3),
      settleSeconds,
      env,
    };
    const contention: ContentionOptions = {
      clients: number('CHAOS_CONSUMERS', 50),
      units: number('CHAOS_UNITS', 30),
      settleSeconds,
      env,
    };
    const burstEvents = number('CHAOS_BURST_EVENTS', NEIGHBOUR_BURST_EVENTS);
    const reports: (ScenarioReport | { scenario: ScenarioName; ok: false; error: string })[] = [];
    for (const name of names) {
      try {
        reports.push(await runScenario(name, options, contention, burstEvents));
      } catch (error) {
        log(`${name}: the scenario itself failed: ${error instanceof Error ? error.stack : String(error)}`);
        reports.push({ scenario: name, ok: false, error: error instanceof Error ? error.message : String(error) });
      }
    }
    const ok = reports.every((r) => r.ok);
    const { env: _env, ...shown } = options;
    console.log(
      JSON.stringify(
        {
          ok,
          cpus: os.cpus().length,
          loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
          options: { ...shown, consumers: contention.clients, units: contention.units, burstEvents },
          elapsedSeconds: Math.round((Date.now() - started) / 100) / 10,
          scenarios: reports,
        },
        null,
        2,
      ),
    );
    return ok ? 0 : 1;
  } finally {
    removeBundle();
  }
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (stopping) return;
    stopping = true;
    log(
      `${signal}: stopping ${ChaosStack.running.size} stack(s)${ChaosStack.starting.size ? ' once the one starting is up' : ''}`,
    );
    // A stack half-started has no handle yet: it is stopped once it is up (startStack bounds that).
    // process.exit skips main's finally: the bundle goes here.
    void Promise.allSettled([...ChaosStack.starting])
      .then(() => Promise.all([...ChaosStack.running].map((stack) => stack.stop())))
      .finally(() => {
        removeBundle();
        process.exit(130);
      });
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
