/**
 * What a chaos run left behind, counted in the database against what the clients were told: events
 * lost, events duplicated (or inventory that does not add up), batches stuck.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool } from 'pg';
import { deltasOf, externalIdOf, type BatchRun, type Traffic } from './load';
import { log } from './log';
import type { ChaosStack } from './stack';

const FINISHED = new Set(['Completed', 'Failed']);

export interface Figures {
  batchesTried: number;
  requests: number;
  /** Batches a client got a 200, a 202 or a batch id for. */
  acknowledged: number;
  refused: number;
  clientGaveUp: number;
  eventsAcknowledged: number;
  lost: number;
  duplicated: number;
  stuck: number;
  /** Acknowledged batches whose row did not end Completed (Failed, still open, or missing). */
  acknowledgedNotCompleted: number;
  http5xx: Record<string, number>;
  connectionErrors: number;
  timeouts: number;
  batchStatuses: Record<string, number>;
  inventory: {
    lots: number;
    lotsNotAddingUp: number;
    /** Lots of batches still open: their records are compared, their balances not (not recalculated yet). */
    lotsAwaitingRecalculation: number;
    surplusRecords: number;
    negativeAvailable: number;
    unknownEvents: number;
    duplicateEventIds: number;
  };
  serviceSurvived: boolean;
  settleSeconds: number;
}

/** Waits (bounded) until no batch of the account is Accepted or Running; a dead supervisor ends the wait. */
export async function settle(stack: ChaosStack, accountId: string, timeoutMs: number): Promise<number> {
  const started = Date.now();
  let open = -1;
  while (Date.now() - started < timeoutMs && !stack.serviceGaveUp()) {
    try {
      const { rows } = await stack.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM batches WHERE account_id = $1 AND status NOT IN ('Completed', 'Failed')`,
        [accountId],
      );
      open = rows[0].n;
      if (open === 0) break;
    } catch {
      // PostgreSQL may be restarting: ask again.
    }
    await sleep(1000);
  }
  const seconds = (Date.now() - started) / 1000;
  log(
    `settled after ${seconds.toFixed(1)} s (${open} batches still open, service ${stack.serviceGaveUp() ? 'gave up' : 'up'})`,
  );
  return seconds;
}

interface BatchRow {
  idempotency_key: string | null;
  status: string;
  errors: { code?: string }[] | null;
}

export interface MeasureOptions {
  /** Business refusals the scenario expects (a batch acknowledged with 202 may still fail with one of these). */
  allowedRefusals?: string[];
}

export async function measure(
  stack: ChaosStack,
  accountId: string,
  runs: BatchRun[],
  traffic: Traffic,
  settleSeconds: number,
  options: MeasureOptions = {},
): Promise<Figures> {
  const serviceSurvived = !stack.serviceGaveUp();
  const db: Pool = await stack.database();
  const allowed = new Set(options.allowedRefusals ?? []);

  const batches = (
    await db.query<BatchRow>('SELECT idempotency_key, status, errors FROM batches WHERE account_id = $1', [accountId])
  ).rows;
  const byKey = new Map(batches.map((b) => [b.idempotency_key, b]));
  const batchStatuses: Record<string, number> = {};
  for (const b of batches) batchStatuses[b.status] = (batchStatuses[b.status] ?? 0) + 1;

  const stored = new Map<string, number>();
  for (const row of (
    await db.query<{ id: string; n: number }>(
      'SELECT external_event_id AS id, count(*)::int AS n FROM events WHERE account_id = $1 GROUP BY 1',
      [accountId],
    )
  ).rows) {
    stored.set(row.id, row.n);
  }

  const refusedForBusiness = (row: BatchRow | undefined) =>
    row?.status === 'Failed' &&
    (row.errors ?? []).length > 0 &&
    (row.errors ?? []).every((e) => allowed.has(String(e.code)));

  let lost = 0;
  let eventsAcknowledged = 0;
  let acknowledgedNotCompleted = 0;
  const acknowledged = runs.filter((r) => r.acknowledgedBy !== null);
  for (const run of acknowledged) {
    const row = byKey.get(run.idempotencyKey);
    if (refusedForBusiness(row)) continue;
    if (row?.status !== 'Completed') acknowledgedNotCompleted++;
    eventsAcknowledged += run.events.length;
    lost += run.events.filter((e) => !stored.has(externalIdOf(e))).length;
  }

  // What the stored events imply for each lot, from the payloads we sent, against what is recorded.
  const sent = new Map(runs.flatMap((r) => r.events.map((e) => [externalIdOf(e), e] as const)));
  // Lots an open batch touches: its recalculation step has not run, so only their records can be compared.
  const awaiting = new Set(
    runs
      .filter((r) => !FINISHED.has(byKey.get(r.idempotencyKey)?.status ?? 'Completed'))
      .flatMap((r) => r.events.flatMap((e) => deltasOf(e).map((d) => d.lot))),
  );
  const expected = new Map<string, { records: number; sum: number }>();
  let unknownEvents = 0;
  let duplicateEventIds = 0;
  for (const [id, n] of stored) {
    duplicateEventIds += n - 1;
    const event = sent.get(id);
    if (!event) {
      unknownEvents++;
      continue;
    }
    for (const { lot, delta } of deltasOf(event)) {
      const lotFigures = expected.get(lot) ?? { records: 0, sum: 0 };
      lotFigures.records += n;
      lotFigures.sum += delta;
      expected.set(lot, lotFigures);
    }
  }
  const { rows: lots } = await db.query<{
    lot: string;
    records: number;
    sum: string;
    balance: string;
    available: string;
    min_available: string;
  }>(
    `SELECT lot_serial AS lot, count(*)::int AS records, sum(delta)::text AS sum,
            (array_agg(balance ORDER BY event_time DESC, event_seq DESC, event_line_id DESC))[1]::text AS balance,
            (array_agg(available ORDER BY event_time DESC, event_seq DESC, event_line_id DESC))[1]::text AS available,
            min(available)::text AS min_available
       FROM inventory_records WHERE account_id = $1 GROUP BY lot_serial`,
    [accountId],
  );
  let lotsNotAddingUp = 0;
  let surplusRecords = 0;
  let negativeAvailable = 0;
  const seenLots = new Set<string>();
  for (const lot of lots) {
    seenLots.add(lot.lot);
    const want = expected.get(lot.lot) ?? { records: 0, sum: 0 };
    surplusRecords += Math.max(0, lot.records - want.records);
    if (Number(lot.min_available) < 0) negativeAvailable++;
    const recordsWrong = lot.records !== want.records || Number(lot.sum) !== want.sum;
    const balanceWrong =
      !awaiting.has(lot.lot) && (Number(lot.balance) !== want.sum || Number(lot.available) !== want.sum);
    if (recordsWrong || balanceWrong) lotsNotAddingUp++;
  }
  for (const lot of expected.keys()) if (!seenLots.has(lot)) lotsNotAddingUp++;

  return {
    batchesTried: runs.length,
    requests: traffic.requests,
    acknowledged: acknowledged.length,
    refused: runs.filter((r) => r.refusedWith !== null).length,
    clientGaveUp: runs.filter((r) => r.gaveUp !== null && r.acknowledgedBy === null).length,
    eventsAcknowledged,
    lost,
    duplicated: duplicateEventIds + unknownEvents + surplusRecords + lotsNotAddingUp + negativeAvailable,
    stuck: batches.filter((b) => !FINISHED.has(b.status)).length,
    acknowledgedNotCompleted,
    http5xx: { ...traffic.http5xx },
    connectionErrors: traffic.connectionErrors,
    timeouts: traffic.timeouts,
    batchStatuses,
    inventory: {
      lots: expected.size,
      lotsNotAddingUp,
      lotsAwaitingRecalculation: awaiting.size,
      surplusRecords,
      negativeAvailable,
      unknownEvents,
      duplicateEventIds,
    },
    serviceSurvived,
    settleSeconds: Math.round(settleSeconds * 10) / 10,
  };
}

/** The brief's verdict: nothing lost, duplicated or stuck, and every acknowledged batch Completed. */
export function problemsOf(figures: Figures): string[] {
  const problems: string[] = [];
  if (figures.lost) problems.push(`${figures.lost} acknowledged events are not in the database`);
  if (figures.duplicated) problems.push(`${figures.duplicated} duplicates or inventory figures that do not add up`);
  if (figures.stuck) problems.push(`${figures.stuck} batches neither Completed nor Failed after settling`);
  if (figures.acknowledgedNotCompleted)
    problems.push(`${figures.acknowledgedNotCompleted} acknowledged batches did not complete`);
  if (!figures.serviceSurvived) problems.push('the service gave up (npm start logged a fatal error or exited)');
  return problems;
}
