import { Context } from '@temporalio/activity';
import type { Transaction } from 'sequelize';
import { lazySavepoint, preparedQueryOf } from '../db/sql';
import { batchesFailed, batchesStarted } from '../platform/metrics';
import type { BatchRef, PersistEventsOutput } from '../pipeline/contracts';
import type { ActivityDeps } from './deps';
import { rejectBatch } from './failures';
import { activityLogger } from './logger';
import { checkEvents } from './persist/checks';
import { recordEpcisCompanyPrefixes } from './persist/company-prefixes';
import { insertBatch } from './persist/insert-batch';
import { refuseBatch } from './persist/refuse';
import { resolvedEvents } from './persist/resolved';
import { startRun } from './persist/start-run';
import type { PersistOutcome, PersistStep } from './persist/step';
import { storeGdstWarnings } from './persist/warnings';

/**
 * Step 1: the batch's events, lines and inventory records in one transaction, all or nothing, read from
 * the batch's stored request (the workflow and its history carry only the batch's id).
 * A refused batch is marked Failed with its whole error list in the same transaction, with nothing of
 * the batch stored; the activity failure names only the first error, so the workflow history stays as
 * small as the batch's id whatever the number of errors (the batch row is where they are read).
 * Idempotent: event ids are derived from the batch id and position, and a retry after a commit finds
 * the batch's rows (or its refusal) and answers from them (the unique event ids are the last line of defence).
 */
export function persistEvents(deps: ActivityDeps) {
  const { sequelize } = deps;
  return async (ref: BatchRef): Promise<PersistEventsOutput> => {
    const outcome = await sequelize.transaction((transaction) => persistOrRefuse(deps, ref, transaction));
    if (!('rejected' in outcome)) return outcome;
    if (outcome.recorded === 'now') batchesFailed.inc({ reason: outcome.rejected[0].code });
    rejectBatch(outcome.rejected);
  };
}

async function persistOrRefuse(deps: ActivityDeps, ref: BatchRef, transaction: Transaction): Promise<PersistOutcome> {
  const query = preparedQueryOf(deps.sequelize, transaction);
  // What the checks write (master data they create) is undone when the batch is refused: back to the
  // savepoint set as they first create something (step.beforeWrite).
  const checks = lazySavepoint(query, 'checks');
  const step: PersistStep = {
    batchId: ref.batchId,
    account: { id: ref.accountId, name: ref.accountName },
    query,
    transaction,
    urnDomain: deps.urnDomain,
    beforeWrite: checks.beforeWrite,
  };
  const start = await startRun(step);
  if (start.kind === 'answered') return start.outcome;
  if (Context.current().info.attempt === 1) batchesStarted.inc();
  const { Events: payloads, Issues: prior = [], EpcisCompanyPrefixes: prefixes } = start.request;

  const { events, products, locations, vessels, stored, errors } = await checkEvents(step, payloads);
  if (errors.length || prior.length) return refuseBatch(step, checks, prior, errors);

  const checked = resolvedEvents(events, products, locations);
  const { recalculate } = await insertBatch(step, payloads, checked, stored);
  await storeGdstWarnings(step, payloads, checked, vessels);
  await recordEpcisCompanyPrefixes(step, payloads, prefixes);
  activityLogger(deps.logger, { batchId: ref.batchId, account: ref.accountName }).info(
    { events: events.length },
    'events persisted',
  );
  // What the workflow's later steps need to know of the stored batch.
  return {
    events: events.length,
    documents: payloads.some((payload) => Boolean(payload.DocumentIds?.length)),
    commissions: events.some((event) => event.type === 'Commission'),
    recalculate,
  };
}
