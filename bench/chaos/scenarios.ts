/**
 * The chaos scenarios of `npm run chaos` (bench/chaos.ts) and test/chaos/: each takes a stack (one of its
 * own in `npm run chaos`; test/chaos/ passes one on to the next scenario), drives traffic on an account of
 * its own, kills one part of the service with SIGKILL at a chosen moment, waits (bounded) for the
 * service to settle, and counts what that account lost, duplicated or left stuck.
 */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { PoolClient } from 'pg';
import { measure, problemsOf, settle, type Figures } from './measure';
import {
  lotBatches,
  runId,
  runLoad,
  commissionEvent,
  shipEvent,
  submitBatch,
  warmUpBatch,
  Traffic,
  type BatchRun,
  type ClientOptions,
  type Mode,
} from './load';
import { startJunkFlood, WRONG_KEY } from './junk-flood';
import { log } from './log';
import { cpuMs, processesOf } from '../lib/processes';
import { localActivityMarker } from '../../test/helpers/local-activity-marker';
import { startReceiver } from '../../test/helpers/receiver';
import { OWN_STACK, type ChaosStack, type Part, type StackSource } from './stack';

export interface ScenarioOptions {
  /** Events per scenario (the concurrency scenario has its own fixed shape). */
  events: number;
  batchSize: number;
  clients: number;
  /** Upper bound on waiting for open batches once the traffic is done. */
  settleSeconds: number;
  /** Passed to every stack (WORKFLOW_BUNDLE_PATH saves each stack from bundling the workflows again). */
  env?: NodeJS.ProcessEnv;
  /** Where the scenario's stack comes from: a stack of its own unless given (OWN_STACK). */
  stacks?: StackSource;
}

export interface ScenarioReport extends Figures {
  scenario: string;
  ok: boolean;
  problems: string[];
  elapsedSeconds: number;
  stackStartSeconds: number;
  /** What the scenario adds: where the kill landed, what was shipped. */
  details: Record<string, unknown>;
}

interface Context {
  stack: ChaosStack;
  key: string;
  accountId: string;
  run: string;
  traffic: Traffic;
  client: ClientOptions;
}

interface Outcome {
  runs: BatchRun[];
  details: Record<string, unknown>;
  problems: string[];
  allowedRefusals?: string[];
}

const round = (n: number) => Math.round(n * 10) / 10;

/** Waits for `ready` (bounded); answers whether it happened. */
async function until(timeoutMs: number, everyMs: number, ready: () => boolean | Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // A failed probe (PostgreSQL or Temporal busy) is a "not yet", not the end of the scenario.
    if (
      await Promise.resolve()
        .then(ready)
        .catch(() => false)
    )
      return true;
    await sleep(everyMs);
  }
  return false;
}

/**
 * One scenario on the stack options.stacks gives (by default a stack of its own): set up, run `body`,
 * settle, count; the stack is handed back whatever happens (a stack of its own is stopped and removed).
 */
async function scenario(
  name: string,
  options: ScenarioOptions,
  body: (ctx: Context) => Promise<Outcome>,
): Promise<ScenarioReport> {
  const stacks = options.stacks ?? OWN_STACK;
  log(`${name}: taking a stack`);
  const t0 = Date.now();
  const stack = await stacks.take(options.env);
  try {
    const stackStartSeconds = (Date.now() - t0) / 1000;
    const run = runId();
    const { key, accountId } = await stack.createAccount(`chaos-${name}-${run}`);
    const traffic = new Traffic();
    const client: ClientOptions = { apiUrl: stack.apiUrl, key, traffic, giveUp: () => stack.serviceGaveUp() };
    // On a traffic record of its own, so "some answers are in" means the scenario's answers.
    const warmUpTraffic = new Traffic();
    const warmUp = await submitBatch({ ...client, traffic: warmUpTraffic }, 'sync', warmUpBatch(run), `warm-${run}`);
    if (warmUp.acknowledgedBy !== 200) throw new Error(`${name}: the warm-up batch failed: ${JSON.stringify(warmUp)}`);
    traffic.requests += warmUpTraffic.requests;

    const started = Date.now();
    const outcome = await body({ stack, key, accountId, run, traffic, client });
    const settleSeconds = await settle(stack, accountId, options.settleSeconds * 1000);
    const figures = await measure(stack, accountId, [warmUp, ...outcome.runs], traffic, settleSeconds, {
      allowedRefusals: outcome.allowedRefusals,
    });
    const problems = [...problemsOf(figures), ...outcome.problems];
    const serviceErrors = figures.serviceSurvived ? [] : stack.errorsLogged();
    if (serviceErrors.length) problems.push(`the service logged: ${serviceErrors.join(' | ')}`);
    const report: ScenarioReport = {
      scenario: name,
      ok: problems.length === 0,
      problems,
      ...figures,
      elapsedSeconds: round((Date.now() - started) / 1000),
      stackStartSeconds: round(stackStartSeconds),
      details: outcome.details,
    };
    log(`${name}: ${report.ok ? 'ok' : `NOT ok: ${problems.join('; ')}`}`);
    return report;
  } finally {
    await stacks.release(stack);
  }
}

/** Load in the background, and a SIGKILL of `part` once `when` holds (bounded: the kill happens anyway at the deadline). */
async function killDuringLoad(
  ctx: Context,
  options: ScenarioOptions,
  mode: Mode,
  part: Part,
  when: () => boolean | Promise<boolean>,
  afterKill: () => Promise<void> = async () => undefined,
): Promise<{ runs: BatchRun[]; details: Record<string, unknown>; problems: string[] }> {
  const batches = lotBatches(ctx.run, Math.max(1, Math.round(options.events / options.batchSize)), options.batchSize);
  const load = runLoad(ctx.client, mode, batches, options.clients, `${part}-${ctx.run}`);
  const problems: string[] = [];
  const triggered = await until(60_000, 20, when);
  const inFlightAtKill = ctx.traffic.inFlight;
  const answeredAtKill = ctx.traffic.answered;
  let killedPid: number | null = null;
  try {
    killedPid = ctx.stack.kill(part);
  } catch (error) {
    problems.push(`the ${part} could not be killed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!triggered) problems.push(`the moment to kill the ${part} never came within 60 s (killed anyway)`);
  await afterKill();
  const runs = await load;
  if (inFlightAtKill === 0) problems.push(`no request was in flight when the ${part} was killed`);
  const replacedPid = ctx.stack.pidOf(part) ?? null;
  return {
    runs,
    problems,
    details: {
      killed: part,
      killedPid,
      replacedBy: replacedPid === killedPid ? null : replacedPid,
      inFlightAtKill,
      answeredAtKill,
    },
  };
}

/** Mid-load: some answers are in, and more requests are on their way. */
const midLoad = (ctx: Context) => () => ctx.traffic.answered >= 1 && ctx.traffic.inFlight >= 1;

const { PENDING_ACTIVITY_STATE_STARTED } = temporal.api.enums.v1.PendingActivityState;

interface PersistInFlight {
  workflowId: string;
  attempt: number;
}

/**
 * 1. SIGKILL the worker while `persistEvents` runs, then prove from the history that the step ran again
 * afterwards. The kill is aimed, not timed: the scenario holds one Accepted batch's row (FOR UPDATE), so
 * that batch's persist, once started, waits inside its transaction on its first statement; the worker
 * is killed while Temporal shows that attempt started, and the row let go right after. Under a loaded
 * machine a persist seen running could otherwise commit before the kill arrives.
 */
export function workerKilledInPersist(options: ScenarioOptions): Promise<ScenarioReport> {
  const asTasks = { ...options, env: stackEnvOf('worker', options.env) };
  return scenario('worker-sigkill-in-persist', asTasks, async (ctx) => {
    const connection = await Connection.connect({ address: ctx.stack.state.temporalAddress });
    let held: HeldBatch | undefined;
    const letGo = async () => {
      await held?.letGo();
      held = undefined;
    };
    try {
      const temporal = new Client({ connection });
      let caught: PersistInFlight | undefined;
      const persisting = async (): Promise<boolean> => {
        held ??= await holdOldestAccepted(ctx);
        if (!held) return false;
        const described = await temporal.workflow
          .getHandle(held.workflowId)
          .describe()
          .catch(() => undefined);
        const attempt = described?.raw.pendingActivities?.find(
          (a) => a.activityType?.name === 'persistEvents' && a.state === PENDING_ACTIVITY_STATE_STARTED,
        );
        if (attempt) caught = { workflowId: held.workflowId, attempt: attempt.attempt ?? 1 };
        return caught !== undefined;
      };
      const outcome = await killDuringLoad(ctx, options, 'sync', 'worker', persisting, letGo);
      await settle(ctx.stack, ctx.accountId, options.settleSeconds * 1000);

      // Temporal writes an activity's ActivityTaskStarted only when that attempt ends, so the history
      // holds the last attempt: a higher attempt than the one running at the kill means it ran again.
      const proof = caught && (await persistProof(temporal, caught));
      if (!proof) outcome.problems.push('persistEvents was never seen running: the kill was not aimed inside persist');
      else if (!proof.ranAgain)
        outcome.problems.push(
          'no history shows persistEvents running again after the kill: it did not land inside persist',
        );
      return {
        ...outcome,
        details: {
          ...outcome.details,
          killLandedInPersist: Boolean(proof?.ranAgain),
          persistAtKill: proof ? [proof] : [],
        },
      };
    } finally {
      await letGo();
      await connection.close();
    }
  });
}

/** What the history of the workflow caught in persist says of that step after the kill. */
async function persistProof(temporal: Client, { workflowId, attempt }: PersistInFlight) {
  const events = (await temporal.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const scheduled = events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'persistEvents');
  const started = events.find(
    (e) => String(e.activityTaskStartedEventAttributes?.scheduledEventId) === String(scheduled?.eventId),
  );
  const completed = events.some(
    (e) => String(e.activityTaskCompletedEventAttributes?.scheduledEventId) === String(scheduled?.eventId),
  );
  const finalAttempt = started?.activityTaskStartedEventAttributes?.attempt ?? null;
  return {
    workflowId,
    attemptAtKill: attempt,
    finalAttempt,
    lastFailure: started?.activityTaskStartedEventAttributes?.lastFailure?.message ?? null,
    completed,
    ranAgain: finalAttempt !== null && finalAttempt > attempt,
  };
}

/** Events per batch in the local-step scenario: well within PIPELINE_LOCAL_MAX_EVENTS's default. */
const SMALL_BATCH = 10;

/**
 * 1b. SIGKILL the process running a small batch's `persistEvents` as a local activity (inside the
 * workflow task, with no activity task Temporal could show as pending): the worker for an async batch,
 * the API for a sync one (its own worker runs the small sync batches it starts, API_SYNC_WORKER).
 * Aimed as in 1: the scenario holds one Accepted batch's row (FOR UPDATE), and the process is killed
 * once PostgreSQL shows a transaction waiting on that lock, which is that batch's persist on its first
 * statement; the row is let go right after. The workflow task dies with the process: it times out, the
 * worker replays the history (no marker for persist yet) and runs the step again. The history proves
 * it: a workflow task that timed out or failed before persist's marker, and no activity task for the step.
 */
export function killedInLocalStep(options: ScenarioOptions, part: 'worker' | 'api'): Promise<ScenarioReport> {
  // Small batches: their steps run as local activities (the stack's default threshold).
  const small = { ...options, batchSize: SMALL_BATCH, events: Math.min(options.events, 30 * SMALL_BATCH) };
  const mode: Mode = part === 'api' ? 'sync' : 'async';
  return scenario(`${part}-sigkill-in-local-persist`, small, async (ctx) => {
    const connection = await Connection.connect({ address: ctx.stack.state.temporalAddress });
    let held: HeldBatch | undefined;
    let caught: string | undefined;
    const letGo = async () => {
      await held?.letGo();
      held = undefined;
    };
    try {
      const temporal = new Client({ connection });
      const persisting = async (): Promise<boolean> => {
        held ??= await holdOldestAccepted(ctx);
        if (!held) return false;
        // Only a persist waits on a batch's row while the scenario holds it.
        const { rows } = await ctx.stack.pool.query<{ waiting: number }>(
          'SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
          [held.pid],
        );
        if (rows[0].waiting > 0) caught = held.workflowId;
        return caught !== undefined;
      };
      const outcome = await killDuringLoad(ctx, small, mode, part, persisting, letGo);
      // The worker is aimed at an async batch's persist, which runs after its 202: on a quick machine every
      // request is answered by then, and none need be in flight. The API's kill (sync) must catch one.
      if (part === 'worker')
        outcome.problems = outcome.problems.filter((p) => !p.startsWith('no request was in flight'));
      await settle(ctx.stack, ctx.accountId, options.settleSeconds * 1000);
      const proof = caught && (await localPersistProof(temporal, caught));
      if (!proof) outcome.problems.push('no local persistEvents was seen waiting: the kill was not aimed inside it');
      else if (!proof.local) outcome.problems.push(`the batch caught in persist ran it as an activity task`);
      else if (!proof.ranAgain)
        outcome.problems.push(
          'no workflow task of the caught batch died before persist: the kill did not land inside it',
        );
      return {
        ...outcome,
        details: {
          ...outcome.details,
          batchSize: SMALL_BATCH,
          killLandedInLocalPersist: Boolean(proof && proof.local && proof.ranAgain),
          persistAtKill: proof ? [proof] : [],
        },
      };
    } finally {
      await letGo();
      await connection.close();
    }
  });
}

const { EventType } = temporal.api.enums.v1;

/** An Accepted batch's row the scenario holds (FOR UPDATE), so that the batch's persist waits on it. */
interface HeldBatch {
  workflowId: string;
  /** The holding session's backend, which a persist waiting on the row is blocked by. */
  pid: number;
  letGo(): Promise<void>;
}

/**
 * Holds the oldest Accepted batch of the scenario's account in a transaction of its own; none when there
 * is none left. SKIP LOCKED: a batch whose persist already holds its row is past the point to aim at.
 */
async function holdOldestAccepted(ctx: { stack: ChaosStack; accountId: string }): Promise<HeldBatch | undefined> {
  const client: PoolClient = await ctx.stack.pool.connect();
  await client.query('BEGIN');
  const { rows } = await client.query<{ workflow_id: string; pid: number }>(
    `SELECT workflow_id, pg_backend_pid() AS pid FROM batches WHERE account_id = $1 AND status = 'Accepted' ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED`,
    [ctx.accountId],
  );
  const letGo = async () => {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  };
  if (!rows.length) {
    await letGo();
    return undefined;
  }
  return { workflowId: rows[0].workflow_id, pid: rows[0].pid, letGo };
}

/**
 * What the history of the workflow caught in its local persist says: persist ran as a local activity
 * (its marker, no activity task), and a workflow task timed out or failed before that marker (the one
 * the killed worker held), so the step ran again in a later one.
 */
async function localPersistProof(temporal: Client, workflowId: string) {
  const events = (await temporal.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const markerAt = events.findIndex((e) => localActivityMarker(e)?.activity_type === 'persistEvents');
  const diedAt = events.findIndex(
    (e) =>
      e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT ||
      e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED,
  );
  return {
    workflowId,
    local:
      markerAt >= 0 &&
      !events.some((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'persistEvents'),
    workflowTasks: events.filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED).length,
    ranAgain: diedAt >= 0 && markerAt > diedAt,
    completed: events.some((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED),
  };
}

/** 2. SIGKILL the embedded PostgreSQL (the postmaster) while sync batches are under way. */
export function postgresKilled(options: ScenarioOptions): Promise<ScenarioReport> {
  return scenario('postgres-sigkill', options, (ctx) => killDuringLoad(ctx, options, 'sync', 'postgres', midLoad(ctx)));
}

/** 3. SIGKILL the Temporal dev server while sync batches are under way. */
export function temporalKilled(options: ScenarioOptions): Promise<ScenarioReport> {
  return scenario('temporal-sigkill', options, (ctx) => killDuringLoad(ctx, options, 'sync', 'temporal', midLoad(ctx)));
}

/** 4. SIGKILL the API with async requests in flight; clients retry with the same Idempotency-Key. */
export function apiKilled(options: ScenarioOptions): Promise<ScenarioReport> {
  return scenario('api-sigkill-async', options, (ctx) =>
    killDuringLoad(ctx, options, 'async', 'api', () => ctx.traffic.answered >= 2 && ctx.traffic.inFlight >= 1),
  );
}

export interface ContentionOptions {
  clients: number;
  units: number;
  settleSeconds: number;
  env?: NodeJS.ProcessEnv;
  stacks?: StackSource;
}

/** 5. `clients` clients at once each ship one unit of a lot of `units`: exactly `units` go, the rest are refused. */
export function concurrentConsumers(options: ContentionOptions): Promise<ScenarioReport> {
  return scenario(
    'concurrent-consume',
    {
      events: options.clients,
      batchSize: 1,
      clients: options.clients,
      settleSeconds: options.settleSeconds,
      env: options.env,
      stacks: options.stacks,
    },
    async (ctx) => {
      const lot = `LOT-${ctx.run}`;
      const lotRun = await submitBatch(
        ctx.client,
        'sync',
        [commissionEvent(`C-${lot}`, lot, options.units)],
        `lot-${ctx.run}`,
      );
      const problems: string[] = [];
      if (lotRun.acknowledgedBy !== 200) problems.push(`commissioning the lot was answered ${JSON.stringify(lotRun)}`);
      const ships = Array.from({ length: options.clients }, (_, i) => [shipEvent(`S-${lot}-${i}`, lot, 1)]);
      const runs = await runLoad(ctx.client, 'sync', ships, options.clients, `ship-${ctx.run}`);
      // A ship answered 202 (the sync wait ran out) is counted once it has run.
      await settle(ctx.stack, ctx.accountId, options.settleSeconds * 1000);

      const db = await ctx.stack.database();
      const { rows } = await db.query<{ shipped: string | null }>(
        `SELECT (-sum(delta) FILTER (WHERE delta < 0))::text AS shipped FROM inventory_records WHERE account_id = $1 AND lot_serial = $2`,
        [ctx.accountId, lot],
      );
      const shipped = Number(rows[0]?.shipped ?? 0);
      // A ship answered 202 (the sync wait ran out) is judged by how its batch ended.
      const { rows: ended } = await db.query<{ key: string; status: string; errors: { code?: string }[] | null }>(
        'SELECT idempotency_key AS key, status, errors FROM batches WHERE account_id = $1',
        [ctx.accountId],
      );
      const endOf = new Map(ended.map((b) => [b.key, b]));
      const insufficient = (codes: (string | undefined)[] | undefined) =>
        !!codes?.length && codes.every((c) => c === 'InsufficientInventory');
      const went = runs.filter(
        (r) => r.acknowledgedBy !== null && endOf.get(r.idempotencyKey)?.status === 'Completed',
      ).length;
      const refusedNow = runs.filter((r) => insufficient(r.refusedWith ?? undefined)).length;
      const refusedLater = runs.filter((r) => {
        const end = endOf.get(r.idempotencyKey);
        return r.acknowledgedBy !== null && end?.status === 'Failed' && insufficient(end.errors?.map((e) => e.code));
      }).length;
      const otherwise = runs.length - went - refusedNow - refusedLater;
      if (shipped !== options.units) problems.push(`${shipped} units shipped from a lot of ${options.units}`);
      if (went !== options.units) problems.push(`${went} ships completed, expected ${options.units}`);
      if (refusedNow + refusedLater !== options.clients - options.units) {
        problems.push(
          `${refusedNow + refusedLater} ships refused with InsufficientInventory, expected ${options.clients - options.units}`,
        );
      }
      if (otherwise) problems.push(`${otherwise} ships neither completed nor refused with InsufficientInventory`);
      return {
        runs: [lotRun, ...runs],
        problems,
        allowedRefusals: ['InsufficientInventory'],
        details: {
          units: options.units,
          clients: options.clients,
          shipped,
          shipsCompleted: went,
          answered200: runs.filter((r) => r.acknowledgedBy === 200).length,
          answered202: runs.filter((r) => r.acknowledgedBy === 202).length,
          refused400InsufficientInventory: refusedNow,
          refusedAfter202InsufficientInventory: refusedLater,
          otherwise,
        },
      };
    },
  );
}

/**
 * 6. Webhook delivery: the receiver is down (503) for the first part of the load, then up; the worker is
 * SIGKILLed while a delivery is in flight (the receiver holds that request). Every Completed batch must
 * reach the receiver (lost: none acknowledged with 2xx), and under one Webhook-Id only (duplicated: a
 * batch owed under two ids, which a receiver de-duplicating on Webhook-Id could not tell apart). The
 * same id arriving again after the kill is at-least-once working, counted as redeliveredSameId.
 */
export function deliveryWorkerKilled(options: ScenarioOptions): Promise<ScenarioReport> {
  const env = stackEnvOf('delivery', options.env);
  return scenario('delivery-worker-sigkill', { ...options, env }, async (ctx) => {
    const receiver = await startReceiver();
    try {
      let up = false;
      let holding = 0;
      receiver.answer = () => {
        if (!up) return 503;
        // The first request after the receiver comes up is held: the worker is killed while it waits.
        if (holding++ === 0) return { hangMs: 8_000 };
        return 200;
      };
      const created = await fetch(`${ctx.stack.apiUrl}/Integration/Webhooks`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-KEY': ctx.key },
        body: JSON.stringify({ Url: receiver.url, Events: ['batch.completed', 'batch.failed'] }),
      });
      if (created.status !== 201)
        throw new Error(`creating the webhook endpoint answered ${created.status}: ${await created.text()}`);
      const acknowledgedIds = () =>
        new Set(receiver.received.filter((r) => r.answered === 200).map((r) => String(r.headers['webhook-id'])));

      const outcome = await killDuringLoad(ctx, options, 'async', 'worker', async () => {
        // Down while the first batches complete, then up; the kill waits for a held delivery.
        if (!up && ctx.traffic.answered >= 2 && receiver.received.length >= 2) up = true;
        return up && holding >= 1;
      });
      const killedAt = Date.now();
      await settle(ctx.stack, ctx.accountId, options.settleSeconds * 1000);
      const db = await ctx.stack.database();
      // The warm-up batch finished before the endpoint existed: it owes no notification.
      const { rows: completed } = await db.query<{ id: string }>(
        `SELECT b.id FROM batches b WHERE b.account_id = $1 AND b.status IN ('Completed', 'Failed')
            AND b.completed_at >= (SELECT min(created_at) FROM webhook_endpoints WHERE account_id = $1)`,
        [ctx.accountId],
      );
      await until(options.settleSeconds * 1000, 500, () => {
        const acknowledged = new Set(
          receiver.received
            .filter((r) => r.answered === 200)
            .map((r) => (JSON.parse(r.body) as { data: { batchId: string } }).data.batchId),
        );
        return completed.every((b) => acknowledged.has(b.id));
      });
      const idsByBatch = new Map<string, Set<string>>();
      for (const r of receiver.received) {
        const batchId = (JSON.parse(r.body) as { data: { batchId: string } }).data.batchId;
        (idsByBatch.get(batchId) ?? idsByBatch.set(batchId, new Set()).get(batchId)!).add(
          String(r.headers['webhook-id']),
        );
      }
      const acknowledged = acknowledgedIds();
      const lost = completed.filter(
        (b) => ![...(idsByBatch.get(b.id) ?? [])].some((id) => acknowledged.has(id)),
      ).length;
      const duplicated = [...idsByBatch.values()].filter((ids) => ids.size > 1).length;
      const attemptsById = new Map<string, number>();
      for (const r of receiver.received)
        attemptsById.set(String(r.headers['webhook-id']), (attemptsById.get(String(r.headers['webhook-id'])) ?? 0) + 1);
      const redeliveredSameId = [...attemptsById.values()].filter((n) => n > 1).length;
      if (lost) {
        // Whether the lost ones were still being retried (and when next) or never tried tells a slow retry from a stuck one.
        const { rows: owed } = await db.query<{
          status: string;
          attempts: number;
          last: string | null;
          next: string | null;
        }>(
          `SELECT d.status, count(a.id)::int AS attempts, max(a.attempted_at)::text AS last, max(a.next_attempt_at)::text AS next
             FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
             LEFT JOIN webhook_attempts a ON a.delivery_id = d.id
            WHERE e.account_id = $1 AND d.status <> 'Delivered' GROUP BY d.id, d.status ORDER BY d.seq`,
          [ctx.accountId],
        );
        const first = receiver.received[0]?.at ?? Date.now();
        const offset = (at: number) => `+${((at - first) / 1000).toFixed(1)}s`;
        const timeline = receiver.received.map((r) => `${offset(r.at)} ${r.answered ?? 'unanswered'}`);
        outcome.problems.push(
          `${lost} finished batch(es) never acknowledged by the receiver: requests ${timeline.join(', ')}; ` +
            `killed at ${offset(killedAt)}, checked at ${offset(Date.now())}; not delivered ${JSON.stringify(owed)}`,
        );
      }
      if (duplicated) outcome.problems.push(`${duplicated} batch(es) notified under more than one Webhook-Id`);
      if (!up) outcome.problems.push('the receiver never came up');
      // The kill is aimed at a delivery, which runs after its batch's answer: no API request need be in flight.
      const problems = outcome.problems.filter((p) => !p.startsWith('no request was in flight'));
      if (holding < 1) problems.push('no delivery was held when the worker was killed');
      return {
        ...outcome,
        problems,
        details: {
          ...outcome.details,
          notificationsLost: lost,
          notificationsDuplicated: duplicated,
          batchesNotified: completed.length,
          requestsReceived: receiver.received.length,
          redeliveredSameId,
        },
      };
    } finally {
      await receiver.close();
    }
  });
}

/** One-event sync calls a client makes one after the other, to see its latency idle and beside a flood. */
const PROBE_CALLS = 30;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : 0;
};

/** The value at percentile `p` (nearest rank). */
const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
};

/**
 * PROBE_CALLS one-event sync batches, one after the other (beside something, at least three and only
 * while `goOn` holds): their runs and how long they took.
 */
async function probeCalls(
  ctx: Context,
  label: string,
  goOn: () => boolean = () => true,
): Promise<{ runs: BatchRun[]; p50Ms: number; p95Ms: number }> {
  const runs: BatchRun[] = [];
  const took: number[] = [];
  for (let i = 0; i < PROBE_CALLS && (i < 3 || goOn()); i++) {
    const lot = `${label}-${ctx.run}-${i}`;
    const started = Date.now();
    runs.push(await submitBatch(ctx.client, 'sync', [commissionEvent(`C-${lot}`, lot, 1)], `probe-${lot}`));
    took.push(Date.now() - started);
  }
  return { runs, p50Ms: median(took), p95Ms: percentile(took, 95) };
}

/** PROBE_CALLS keyed reads (GET /Integration/Account), one after the other: how long they took, p50. */
async function probeReads(ctx: Context): Promise<number> {
  const took: number[] = [];
  for (let i = 0; i < PROBE_CALLS; i++) {
    const started = Date.now();
    const response = await fetch(`${ctx.stack.apiUrl}/Integration/Account`, { headers: { 'X-API-KEY': ctx.key } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`a keyed read was answered ${response.status}`);
    took.push(Date.now() - started);
  }
  return median(took);
}

/** Loops `send` on `clients` clients at once until stop() is called; stop() waits for the last ones. */
function flood<T>(clients: number, send: (client: number) => Promise<T>): { answers: T[]; stop: () => Promise<void> } {
  const answers: T[] = [];
  let flooding = true;
  const loops = Array.from({ length: clients }, async (_, client) => {
    while (flooding) answers.push(await send(client));
  });
  return {
    answers,
    stop: async () => {
      flooding = false;
      await Promise.all(loops);
    },
  };
}

const countBy = <T>(items: T[], key: (item: T) => string | number): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
};

const JUNK_CLIENTS = 8;

/** The API process's CPU so far, and the bytes it has read (sockets and files alike: /proc/<pid>/io rchar). */
function apiReadings(stack: ChaosStack): { cpuMs: number; readBytes: number } {
  const pid = stack.pidOf('api');
  const io = pid ? fs.readFileSync(`/proc/${pid}/io`, 'utf8') : '';
  return { cpuMs: cpuMs(processesOf(stack.state)).api, readBytes: Number(/^rchar: (\d+)/m.exec(io)?.[1] ?? 0) };
}

/**
 * 7. A junk-body flood, nothing killed: 8 clients (bench/chaos/junk-flood.ts, a process of their own)
 * send bodies the service refuses (24 MB with no key, or with a wrong one; 4 GB declared with a valid
 * key), half of them sending on after the answer, half dropping the connection and starting the next,
 * while a keyed client makes one-event sync calls, then reads (GET /Integration/Account), one after the
 * other. Each refused body must be answered (400, 401, 413) and its connection closed. Figures: the
 * keyed client's p50s idle and beside the flood (the target: within 2x), how much of its bodies the flood got into its sockets (most of it
 * into the kernel's buffers), and what the API read and the CPU it used meanwhile (the keyed calls'
 * included).
 */
export function junkBodyFlood(options: ScenarioOptions): Promise<ScenarioReport> {
  return scenario('junk-body-flood', options, async (ctx) => {
    const idle = await probeCalls(ctx, 'idle');
    const idleReadP50Ms = await probeReads(ctx);
    const before = apiReadings(ctx.stack);
    const floodStarted = Date.now();
    const junk = startJunkFlood({ apiUrl: ctx.stack.apiUrl, key: ctx.key, clients: JUNK_CLIENTS });
    const beside = await probeCalls(ctx, 'flood');
    const besideReadP50Ms = await probeReads(ctx);
    const { answers, cpuSeconds: floodCpuSeconds } = await junk.stop();
    const floodSeconds = (Date.now() - floodStarted) / 1000;
    const after = apiReadings(ctx.stack);
    const problems: string[] = [];
    const unexpected = answers.filter((a) => ![400, 401, 413].includes(a.status));
    if (unexpected.length)
      problems.push(
        `${unexpected.length} junk bodies answered otherwise than 400, 401 or 413: ${JSON.stringify(countBy(unexpected, (a) => a.status))}`,
      );
    const open = answers.filter((a) => a.closed === false || a.connection !== 'close').length;
    if (open) problems.push(`${open} junk-body connections the API kept open (or did not say it would close)`);
    const mb = (bytes: number) => round(bytes / 1024 ** 2);
    return {
      runs: [...idle.runs, ...beside.runs],
      problems,
      details: {
        junkClients: JUNK_CLIENTS,
        junkRequests: answers.length,
        junkAnswers: countBy(answers, (a) => a.status),
        junkConnectionsLeftOpen: open,
        junkMBOutMax: mb(Math.max(0, ...answers.map((a) => a.bodyBytesWritten))),
        junkMBOutTotal: mb(answers.reduce((sum, a) => sum + a.bodyBytesWritten, 0)),
        floodSeconds: round(floodSeconds),
        apiMBReadDuringFlood: mb(after.readBytes - before.readBytes),
        apiCpuSecondsDuringFlood: round((after.cpuMs - before.cpuMs) / 1000),
        floodCpuSeconds: round(floodCpuSeconds),
        keyedP50MsIdle: idle.p50Ms,
        keyedP50MsBesideFlood: beside.p50Ms,
        keyedP50Ratio: idle.p50Ms ? round(beside.p50Ms / idle.p50Ms) : null,
        keyedReadP50MsIdle: idleReadP50Ms,
        keyedReadP50MsBesideFlood: besideReadP50Ms,
        keyedReadP50Ratio: idleReadP50Ms ? round(besideReadP50Ms / idleReadP50Ms) : null,
      },
    };
  });
}

/** TEST-NET-2 (RFC 5737) addresses for the clients behind the scenario's proxy. */
const FLOODER = '198.51.100.7';
const NEIGHBOUR = '198.51.100.8';
const FAILED_KEYS_PER_MINUTE = 30;

/**
 * 8. A wrong-key flood behind one proxy, nothing killed: the stack trusts 127.0.0.1 as its reverse proxy
 * (TRUSTED_PROXIES), and the scenario plays that proxy, passing each client's address in X-Forwarded-For.
 * One client floods wrong keys until it gets 429; then batches go with a valid key from a neighbour
 * behind the same proxy and from the flooder's own address. No keyed request may get a 429, and the
 * neighbour's own wrong key is a 401 (its own count), not a 429.
 */
export function wrongKeyFloodBehindProxy(options: ScenarioOptions): Promise<ScenarioReport> {
  const env = stackEnvOf('wrong-keys', options.env);
  return scenario('wrong-key-flood-behind-proxy', { ...options, env }, async (ctx) => {
    const from = (address: string, key: string) =>
      fetch(`${ctx.stack.apiUrl}/Integration/Account`, {
        headers: { 'X-API-KEY': key, 'X-Forwarded-For': address },
      }).then(async (response) => {
        await response.arrayBuffer();
        return response.status;
      });
    const floodStarted = Date.now();
    const wrongKeys = flood(4, () => from(FLOODER, WRONG_KEY));
    const problems: string[] = [];
    if (!(await until(30_000, 50, () => wrongKeys.answers.includes(429))))
      problems.push(`the flooder never got a 429 within 30 s: ${JSON.stringify(countBy(wrongKeys.answers, (s) => s))}`);
    const neighbourWrongKey = await from(NEIGHBOUR, WRONG_KEY);
    if (neighbourWrongKey !== 401)
      problems.push(`the neighbour's own wrong key was answered ${neighbourWrongKey}, not 401`);
    const batches = lotBatches(ctx.run, Math.max(2, Math.round(options.events / options.batchSize)), options.batchSize);
    const half = Math.ceil(batches.length / 2);
    const behind = (address: string): ClientOptions => ({ ...ctx.client, headers: { 'X-Forwarded-For': address } });
    const [neighbourRuns, flooderRuns] = await Promise.all([
      runLoad(behind(NEIGHBOUR), 'sync', batches.slice(0, half), options.clients, `neighbour-${ctx.run}`),
      runLoad(behind(FLOODER), 'sync', batches.slice(half), options.clients, `flooder-key-${ctx.run}`),
    ]);
    const keyedAfter = await from(FLOODER, ctx.key);
    await wrongKeys.stop();
    const throttled = [...neighbourRuns, ...flooderRuns].filter((r) => r.gaveUp?.startsWith('HTTP 429'));
    if (throttled.length) problems.push(`${throttled.length} batches with a valid key were answered 429`);
    if (keyedAfter !== 200) problems.push(`a valid key from the flooder's address was answered ${keyedAfter}`);
    const floodAnswers = countBy(wrongKeys.answers, (s) => s);
    return {
      runs: [...neighbourRuns, ...flooderRuns],
      problems,
      details: {
        failedKeysPerMinute: FAILED_KEYS_PER_MINUTE,
        floodSeconds: round((Date.now() - floodStarted) / 1000),
        wrongKeyRequests: wrongKeys.answers.length,
        wrongKeyAnswers: floodAnswers,
        neighbourWrongKey,
        keyedBatchesFromNeighbour: neighbourRuns.length,
        keyedBatchesFromFlooder: flooderRuns.length,
        keyedAnswered429: throttled.length,
        keyedFromFlooderAfter: keyedAfter,
      },
    };
  });
}

/** Events of the neighbour's burst in `npm run chaos` (CHAOS_BURST_EVENTS): the issue's 20,000. */
export const NEIGHBOUR_BURST_EVENTS = 20_000;

/**
 * 9. A neighbour's burst, nothing killed: another account queues `burstEvents` events as async batches
 * (as many clients as the kill scenarios), and while they are open the scenario's account makes
 * one-event sync calls, one after the other, as it did idle. The figure: those calls' p95 beside the
 * burst against idle (the target: at most 3x; the small batches run in the API's own worker and the
 * interactive worker, the burst in the bulk one). Both accounts' batches are counted: nothing lost,
 * duplicated or stuck.
 */
export function neighbourBurst(
  options: ScenarioOptions,
  burstEvents = NEIGHBOUR_BURST_EVENTS,
): Promise<ScenarioReport> {
  return scenario('neighbour-burst', options, async (ctx) => {
    const idle = await probeCalls(ctx, 'idle');
    const neighbour = await ctx.stack.createAccount(`chaos-neighbour-${ctx.run}`);
    const neighbourTraffic = new Traffic();
    const neighbourClient: ClientOptions = { ...ctx.client, key: neighbour.key, traffic: neighbourTraffic };
    // Its product and location, as the scenario's own account got them.
    const warmUp = await submitBatch(neighbourClient, 'sync', warmUpBatch(`N-${ctx.run}`), `warm-N-${ctx.run}`);
    if (warmUp.acknowledgedBy !== 200)
      throw new Error(`the neighbour's warm-up batch failed: ${JSON.stringify(warmUp)}`);
    const batches = lotBatches(
      `N-${ctx.run}`,
      Math.max(1, Math.round(burstEvents / options.batchSize)),
      options.batchSize,
    );
    const burstStarted = Date.now();
    const burstRuns = await runLoad(neighbourClient, 'async', batches, options.clients, `burst-${ctx.run}`);
    const queuedSeconds = (Date.now() - burstStarted) / 1000;
    let open = true;
    const settled = settle(ctx.stack, neighbour.accountId, options.settleSeconds * 1000).finally(() => (open = false));
    const beside = await probeCalls(ctx, 'beside', () => open);
    const besideWhileOpen = open;
    const settleSeconds = await settled;
    const burstSeconds = (Date.now() - burstStarted) / 1000;
    const burstFigures = await measure(
      ctx.stack,
      neighbour.accountId,
      [warmUp, ...burstRuns],
      neighbourTraffic,
      settleSeconds,
    );
    return {
      runs: [...idle.runs, ...beside.runs],
      problems: problemsOf(burstFigures).map((problem) => `the neighbour's burst: ${problem}`),
      details: {
        burstEvents: batches.flat().length,
        burstBatches: burstRuns.length,
        burstQueuedSeconds: round(queuedSeconds),
        burstSeconds: round(burstSeconds),
        burstEventsPerSecond: round(batches.flat().length / burstSeconds),
        burst: {
          acknowledged: burstFigures.acknowledged,
          lost: burstFigures.lost,
          duplicated: burstFigures.duplicated,
          stuck: burstFigures.stuck,
          acknowledgedNotCompleted: burstFigures.acknowledgedNotCompleted,
          batchStatuses: burstFigures.batchStatuses,
          http5xx: burstFigures.http5xx,
        },
        callsBesideBurst: beside.runs.length,
        burstStillOpenAfterCalls: besideWhileOpen,
        oneEventP50MsIdle: idle.p50Ms,
        oneEventP95MsIdle: idle.p95Ms,
        oneEventP50MsBesideBurst: beside.p50Ms,
        oneEventP95MsBesideBurst: beside.p95Ms,
        oneEventP95Ratio: idle.p95Ms ? round(beside.p95Ms / idle.p95Ms) : null,
      },
    };
  });
}

/**
 * What a scenario's stack runs with beyond the options' env (a shared stack is taken by its environment:
 * test/chaos/ starts each ahead of the scenario that asks for it).
 */
const SCENARIO_ENV: Partial<Record<ScenarioName, NodeJS.ProcessEnv>> = {
  // Every batch's steps are local by default: this scenario's run as activity tasks (worker-local kills
  // inside a local one).
  worker: { PIPELINE_LOCAL_MAX_EVENTS: '0' },
  // The scenario plays the reverse proxy, and counts wrong keys at the default rate.
  'wrong-keys': { TRUSTED_PROXIES: '127.0.0.1', FAILED_KEYS_PER_MINUTE: String(FAILED_KEYS_PER_MINUTE) },
  // A 5-minute retry window caps the backoff between attempts at 30 s (72 hours' cap is an hour): however
  // many 503s a slow machine lets pile up before the receiver comes up, the next attempt falls in the wait.
  delivery: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_SECONDS: '300' },
};

/** The environment the scenario `name`'s stack runs with, given the options' env. */
export const stackEnvOf = (name: ScenarioName, env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...env,
  ...SCENARIO_ENV[name],
});

export const SCENARIOS = [
  'worker',
  'worker-local',
  'api-local',
  'postgres',
  'temporal',
  'api',
  'consume',
  'delivery',
  'junk-bodies',
  'wrong-keys',
  'neighbour-burst',
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export function runScenario(
  name: ScenarioName,
  options: ScenarioOptions,
  contention: ContentionOptions,
  burstEvents = NEIGHBOUR_BURST_EVENTS,
): Promise<ScenarioReport> {
  switch (name) {
    case 'worker':
      return workerKilledInPersist(options);
    case 'worker-local':
      return killedInLocalStep(options, 'worker');
    case 'api-local':
      return killedInLocalStep(options, 'api');
    case 'postgres':
      return postgresKilled(options);
    case 'temporal':
      return temporalKilled(options);
    case 'api':
      return apiKilled(options);
    case 'consume':
      return concurrentConsumers(contention);
    case 'delivery':
      return deliveryWorkerKilled(options);
    case 'junk-bodies':
      return junkBodyFlood(options);
    case 'wrong-keys':
      return wrongKeyFloodBehindProxy(options);
    case 'neighbour-burst':
      return neighbourBurst(options, burstEvents);
  }
}
