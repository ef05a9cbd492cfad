/**
 * Recalls: issuing one, a consignee answering it and passing it on, the issuer closing it. Each stores
 * its change and the webhooks it owes in one transaction (db/repositories/recalls.ts), then wakes those
 * webhooks and tells the recall's follow-up workflow (workflows/follow-recall.ts). Typed outcomes, no HTTP.
 */
import type { Client } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import type { Sequelize } from 'sequelize';
import { resolveIds } from '../db/queries/inventory';
import { lotRecorded, recallConsignees, type RecallConsignee } from '../db/queries/recall-reach';
import {
  acknowledgeRecall,
  closeRecall as storeClose,
  createRecall,
  destroyedRecorded,
  issuedRecall,
  openRecallIds,
  ownEntity,
  passRecallOn as storePassOn,
  recallAccounts,
  receivedNotice,
  type NoticeRow,
  type RecallRow,
  type RecallStrategy,
} from '../db/repositories/recalls';
import {
  checkPercentOf,
  consigneeFigures,
  DEFAULT_REMINDERS,
  effectivenessTotals,
  round,
  type ShippedLot,
} from '../domain/recall-strategy';
import { destroyedEvent, recallReference } from '../domain/recall-decommission';
import type { BatchError } from '../domain/batch-errors';
import type { EventPayload } from '../domain/events';
import type { Logger } from '../platform/logger';
import { signalRecallFollowUp } from '../platform/recalls';
import { recallWorkflowId } from '../domain/recall-contracts';
import { wakeWebhookEndpoints } from '../platform/webhooks';
import { isUuid } from '../db/sql';
import type { AcknowledgeInput, CreateRecallInput, LotAnswerInput } from '../contract/recalls/schema';

/**
 * Runs events through the batch pipeline as one batch of the account, as every other entrance does
 * (batches/submit.ts; the API wires it), and waits for its outcome: stored, or refused with the batch's
 * errors. An outcome it cannot wait for (the pipeline gave up, or is still at it) it answers itself.
 */
export type RecordEvents = (
  account: { id: string; name: string },
  events: EventPayload[],
) => Promise<{ kind: 'recorded' } | { kind: 'refused'; errors: BatchError[] }>;

export interface RecallServices {
  sequelize: Sequelize;
  temporal: Client;
  taskQueue: string;
  webhookRetrySeconds: number;
  logger: Logger;
  recordEvents: RecordEvents;
}

export type Issued = { recall: RecallRow; notices: NoticeRow[] };

/** The recall `id` as its issuer `accountId` sees it (null: no such recall of the account). */
export const findIssued = (services: RecallServices, accountId: string, id: string): Promise<Issued | null> =>
  isUuid(id) ? issuedRecall(services.sequelize, accountId, id) : Promise.resolve(null);

/** The notice of recall `id` that `accountId` received (null: none). */
export const findNotice = (services: RecallServices, accountId: string, id: string): Promise<NoticeRow | null> =>
  isUuid(id) ? receivedNotice(services.sequelize, accountId, id) : Promise.resolve(null);

export const iso = (at: Date | string): string => new Date(at).toISOString();

const strategyView = (strategy: RecallStrategy) => ({
  depth: strategy.depth,
  effectivenessCheck: { level: strategy.checkLevel, percent: strategy.checkPercent },
  reminders: { everySeconds: strategy.remindEverySeconds, overdueAfter: strategy.overdueAfterReminders },
});

/** What every party is told of a recall: in the API's answers and in the webhooks. */
export const recallSummary = (row: RecallRow) => ({
  id: row.id,
  issuer: row.issuer_name,
  reason: row.reason,
  createdTime: iso(row.created_at),
  strategy: strategyView({
    depth: row.depth,
    checkLevel: row.check_level,
    checkPercent: Number(row.check_percent),
    remindEverySeconds: row.remind_every_seconds,
    overdueAfterReminders: row.overdue_after_reminders,
  }),
  closed: row.closed_at
    ? { time: iso(row.closed_at), reason: row.close_reason, levelMet: Boolean(row.closed_level_met) }
    : null,
});

/** A consignee's recall.received: its notice, as GET /Integration/Recalls/{id} shows it when it arrives. */
const noticeData = (recall: ReturnType<typeof recallSummary>) => (consignee: RecallConsignee) => ({
  ...recall,
  shipped: consignee.shipped,
  ...consignee.notice,
});

/** The figures of each consignee and the recall's effectiveness in total. */
export function recallEffectiveness({ recall, notices }: Issued) {
  const consignees = notices.map((n) => {
    const facts = {
      shipped: n.shipped,
      answers: n.lot_answers,
      acknowledged: Boolean(n.acknowledged_at),
      overdue: Boolean(n.overdue_at),
    };
    return { notice: n, facts, figures: consigneeFigures(facts) };
  });
  return { consignees, effectiveness: effectivenessTotals(consignees, Number(recall.check_percent)) };
}

/**
 * After a commit: the webhook endpoints it owes deliveries are woken, and (as it changes what the recall's
 * follow-up waits for) the follow-up's workflow is told to read the rows again. Only sooner: its next pass
 * (at the next due reminder, within the hour) reads them anyway, so a failed signal is logged, not answered
 * as an error for a change that was stored.
 */
async function afterCommit(services: RecallServices, endpoints: string[], recallId: string): Promise<void> {
  await wakeWebhookEndpoints(services.temporal, services.taskQueue, [...new Set(endpoints)], {
    retrySeconds: services.webhookRetrySeconds,
  });
  try {
    await signalRecallFollowUp(services.temporal, services.taskQueue, recallId);
  } catch (error) {
    services.logger.warn(
      { err: error, recallId },
      'could not signal the recall follow-up; its next pass reads the change',
    );
  }
}

/** The strategy a request asks for, or what is wrong with its check (B needs its percentage, the others take none). */
function strategyFor(
  input: Pick<CreateRecallInput, 'Depth' | 'EffectivenessCheck' | 'Reminders'>,
): RecallStrategy | string {
  const level = input.EffectivenessCheck?.Level ?? 'A';
  const checkPercent = checkPercentOf(level, input.EffectivenessCheck?.Percent);
  if (typeof checkPercent === 'string') return checkPercent;
  return {
    depth: input.Depth ?? 'Consumer',
    checkLevel: level,
    checkPercent,
    remindEverySeconds: input.Reminders?.EverySeconds ?? DEFAULT_REMINDERS.everySeconds,
    overdueAfterReminders: input.Reminders?.OverdueAfter ?? DEFAULT_REMINDERS.overdueAfter,
  };
}

export type IssueRecallOutcome =
  | { kind: 'productNotFound' }
  | { kind: 'lotNotFound' }
  | { kind: 'invalidStrategy'; problem: string }
  | { kind: 'issued'; issued: Issued };

/**
 * Issues a recall of the issuer's lot to the accounts its shipments reached (its direct consignees). The
 * follow-up workflow starts before the recall is stored, so no recall is ever stored without one.
 */
export async function issueRecall(
  services: RecallServices,
  issuer: { id: string; name: string },
  input: CreateRecallInput,
): Promise<IssueRecallOutcome> {
  const { sequelize } = services;
  const strategy = strategyFor(input);
  if (typeof strategy === 'string') return { kind: 'invalidStrategy', problem: strategy };
  const [productId] = await resolveIds(sequelize, 'products', issuer.id, [input.ProductId]);
  if (!productId) return { kind: 'productNotFound' };
  if (!(await lotRecorded(sequelize, issuer.id, productId, input.LotSerial))) return { kind: 'lotNotFound' };
  const recalled = { accountId: issuer.id, productId, lotSerial: input.LotSerial };
  const consignees = await recallConsignees(sequelize, recalled, [recalled], new Set([issuer.id]));
  const id = randomUUID();
  await signalRecallFollowUp(services.temporal, services.taskQueue, id);
  const endpoints = await createRecall(
    sequelize,
    { id, issuerAccountId: issuer.id, productId, lotSerial: input.LotSerial, reason: input.Reason },
    strategy,
    consignees,
    noticeData({
      id,
      issuer: issuer.name,
      reason: input.Reason,
      createdTime: new Date().toISOString(),
      strategy: strategyView(strategy),
      closed: null,
    }),
  );
  await afterCommit(services, endpoints, id);
  return { kind: 'issued', issued: (await issuedRecall(sequelize, issuer.id, id))! };
}

/** What is wrong with one lot of an answer: its index in `lots`, the field (null: its figures together), and the fix. */
export interface LotProblem {
  index: number;
  field: 'LotSerial' | 'Destroyed' | 'DestroyedAt' | null;
  problem: string;
}

/** Why a lot's figures cannot be: together they account for more than was shipped to the holder. */
function overShipped(lot: LotAnswerInput, shippedLots: ShippedLot[]): string | undefined {
  const shipped = shippedLots.find((s) => s.lotSerial === lot.LotSerial);
  if (!shipped) return undefined;
  const figures = { OnHand: lot.OnHand, Returned: lot.Returned, Destroyed: lot.Destroyed, SoldOn: lot.SoldOn };
  const given = Object.entries(figures).filter((entry): entry is [string, number] => Boolean(entry[1]));
  const total = round(given.reduce((sum, [, n]) => sum + n, 0));
  if (total <= shipped.quantity) return undefined;
  return (
    `${given.map(([name, n]) => `${name} ${n}`).join(' + ')} = ${total} ${shipped.unit} of ${lot.LotSerial}, more than the ` +
    `${shipped.quantity} shipped to you: the figures say what became of what you received, together at most ${shipped.quantity}.`
  );
}

export type AnswerRecallOutcome =
  | { kind: 'notFound' }
  | { kind: 'alreadyClosed' }
  /** Lots the consignee did not receive or named twice, or whose destroyed quantity cannot be recorded. */
  | { kind: 'lotsRefused'; lots: LotProblem[] }
  | { kind: 'answered'; notice: NoticeRow };

/** Why the pipeline refused a lot's decommission, said as what to change in the answer. */
function destroyedRefusal(lot: LotAnswerInput, recorded: number, error: BatchError): LotProblem['problem'] {
  if (error.code !== 'InsufficientInventory' || error.available === undefined) return error.message;
  const already = recorded ? ` (${recorded} is recorded for this recall already)` : '';
  return (
    `Destroyed ${lot.Destroyed ?? 0} would record ${error.requested ?? round((lot.Destroyed ?? 0) - recorded)} more of ${lot.LotSerial} as ` +
    `destroyed at ${lot.DestroyedAt}, which holds ${error.available}${already}. Give at most ${round(recorded + error.available)}, ` +
    'or leave DestroyedAt out to record nothing.'
  );
}

/**
 * Records what the answer says was destroyed at a place it names (DestroyedAt), beyond what is recorded
 * for the recall already, as decommission events through the batch pipeline, so that the holder's
 * inventory agrees with its answer. Runs before the answer is stored: a lot refused (more than the place
 * holds, an unknown place, less than recorded) stores nothing of the answer. Answers the lots refused.
 */
async function recordDestroyed(
  services: RecallServices,
  notice: NoticeRow,
  lots: LotAnswerInput[],
): Promise<LotProblem[]> {
  const { sequelize } = services;
  const holder = notice.holder_account_id;
  const reference = recallReference(notice.id);
  const problems: LotProblem[] = [];
  const toRecord: { index: number; recorded: number; event: EventPayload }[] = [];
  const at = new Date();
  for (const [index, lot] of lots.entries()) {
    if (lot.DestroyedAt === undefined) continue;
    const location = await ownEntity(sequelize, 'locations', holder, lot.DestroyedAt);
    // The lot as the holder received it (its own product), which is what it destroyed of the recall.
    const source = notice.sources.find((s) => s.accountId === holder && s.lotSerial === lot.LotSerial);
    const product = source && (await ownEntity(sequelize, 'products', holder, source.productId));
    if (!location?.external_id || !product?.external_id) {
      problems.push({
        index,
        field: 'DestroyedAt',
        problem: location
          ? `Location ${lot.DestroyedAt} (or the product of ${lot.LotSerial}) has no id of yours, which the events pipeline names it by: record the decommission yourself and leave DestroyedAt out.`
          : `No location ${lot.DestroyedAt} in your account: name where you destroyed ${lot.LotSerial} by your location id or the service id.`,
      });
      continue;
    }
    const recorded = await destroyedRecorded(sequelize, holder, reference, {
      productId: product.id,
      lotSerial: lot.LotSerial,
    });
    const total = lot.Destroyed ?? 0;
    if (total < recorded) {
      problems.push({
        index,
        field: 'Destroyed',
        problem: `${recorded} of ${lot.LotSerial} is recorded as destroyed for this recall already: Destroyed is the total, at least ${recorded}.`,
      });
      continue;
    }
    if (total === recorded) continue;
    toRecord.push({
      index,
      recorded,
      event: destroyedEvent({
        recallId: notice.id,
        productId: product.external_id,
        locationId: location.external_id,
        lotSerial: lot.LotSerial,
        quantity: round(total - recorded),
        recorded,
        at,
      }),
    });
  }
  if (problems.length || !toRecord.length) return problems;
  const outcome = await services.recordEvents(
    { id: holder, name: notice.holder_name },
    toRecord.map((r) => r.event),
  );
  if (outcome.kind === 'recorded') return [];
  return outcome.errors.map((error) => {
    // The batch's errors name its events by index: each is one lot of the answer.
    const { index, recorded } = toRecord[error.index ?? 0];
    return {
      index,
      field: error.code === 'UnknownLocation' ? 'DestroyedAt' : 'Destroyed',
      problem: destroyedRefusal(lots[index], recorded, error),
    };
  });
}

/** A consignee's answer (a later one replaces it); the issuer hears recall.acknowledged. */
export async function answerRecall(
  services: RecallServices,
  accountId: string,
  id: string,
  answer: AcknowledgeInput,
): Promise<AnswerRecallOutcome> {
  const notice = await findNotice(services, accountId, id);
  if (!notice) return { kind: 'notFound' };
  const refused: LotProblem[] = [];
  const seen = new Set<string>();
  answer.Lots?.forEach((lot, index) => {
    const { LotSerial: lotSerial } = lot;
    const over = overShipped(lot, notice.shipped);
    if (!notice.received_lots.includes(lotSerial))
      refused.push({
        index,
        field: 'LotSerial',
        problem: `${lotSerial} is not a lot you received of this recall; yours: ${notice.received_lots.join(', ')}.`,
      });
    else if (seen.has(lotSerial)) refused.push({ index, field: 'LotSerial', problem: `${lotSerial} is named twice.` });
    else if (over) refused.push({ index, field: null, problem: over });
    seen.add(lotSerial);
  });
  if (refused.length) return { kind: 'lotsRefused', lots: refused };
  if (notice.closed_at) return { kind: 'alreadyClosed' };
  // Recorded first: the answer is stored only with its decommissions. Should the recall close in between,
  // the events stay and the answer is refused (409); they are the holder's own record of what it did.
  const destroyedRefused = await recordDestroyed(services, notice, answer.Lots ?? []);
  if (destroyedRefused.length) return { kind: 'lotsRefused', lots: destroyedRefused };
  const lots =
    answer.Lots?.map((lot) => ({
      lotSerial: lot.LotSerial,
      onHand: lot.OnHand ?? 0,
      returned: lot.Returned ?? 0,
      destroyed: lot.Destroyed ?? 0,
      soldOn: lot.SoldOn ?? 0,
    })) ?? null;
  const acknowledged = await acknowledgeRecall(
    services.sequelize,
    notice,
    { quantityOnHand: answer.QuantityOnHand, action: answer.Action, lots },
    (at) => ({
      id,
      holder: notice.holder_name,
      lots: notice.received_lots,
      acknowledgement: { time: at.toISOString(), quantityOnHand: answer.QuantityOnHand, action: answer.Action, lots },
    }),
  );
  if (acknowledged === 'closed') return { kind: 'alreadyClosed' };
  await afterCommit(services, acknowledged, id);
  return { kind: 'answered', notice: (await receivedNotice(services.sequelize, accountId, id))! };
}

export type PassRecallOnOutcome =
  | { kind: 'notFound' }
  | { kind: 'alreadyClosed' }
  | { kind: 'passedOn'; passedOnTime: Date; reached: RecallConsignee[] };

/** A consignee passes the recall on: the accounts its own shipments reached, not reached yet, become consignees. */
export async function passRecallOn(
  services: RecallServices,
  accountId: string,
  id: string,
): Promise<PassRecallOnOutcome> {
  const { sequelize } = services;
  const notice = await findNotice(services, accountId, id);
  if (!notice) return { kind: 'notFound' };
  if (notice.closed_at) return { kind: 'alreadyClosed' };
  const recalled = { accountId: notice.issuer_account_id, productId: notice.product_id, lotSerial: notice.lot_serial };
  const known = await recallAccounts(sequelize, notice);
  const consignees = await recallConsignees(sequelize, recalled, notice.sources, known);
  const passed = await storePassOn(sequelize, notice, consignees, noticeData(recallSummary(notice)));
  if (passed === 'closed') return { kind: 'alreadyClosed' };
  await afterCommit(services, passed.endpoints, id);
  const after = (await receivedNotice(sequelize, accountId, id))!;
  return { kind: 'passedOn', passedOnTime: new Date(after.passed_on_at!), reached: consignees };
}

export type CloseRecallOutcome =
  | { kind: 'notFound' }
  | { kind: 'alreadyClosed' }
  | { kind: 'levelNotMet'; issued: Issued; effectiveness: ReturnType<typeof recallEffectiveness>['effectiveness'] }
  | { kind: 'closed'; issued: Issued };

/** The issuer closes the recall: when its check level is met, or with a reason why not. Every consignee hears recall.closed. */
export async function closeRecall(
  services: RecallServices,
  accountId: string,
  id: string,
  reason: string | null,
): Promise<CloseRecallOutcome> {
  const issued = await findIssued(services, accountId, id);
  if (!issued) return { kind: 'notFound' };
  if (issued.recall.closed_at) return { kind: 'alreadyClosed' };
  const { effectiveness } = recallEffectiveness(issued);
  if (!effectiveness.levelMet && !reason) return { kind: 'levelNotMet', issued, effectiveness };
  const endpoints = await storeClose(
    services.sequelize,
    issued.recall,
    { reason, levelMet: effectiveness.levelMet },
    (at) => ({
      id,
      issuer: issued.recall.issuer_name,
      closedTime: at.toISOString(),
      reason,
      levelMet: effectiveness.levelMet,
    }),
  );
  if (endpoints === 'closed') return { kind: 'alreadyClosed' };
  await afterCommit(services, endpoints, id);
  return { kind: 'closed', issued: (await issuedRecall(services.sequelize, accountId, id))! };
}

/** The follow-ups Temporal lists as running: one visibility query, paged, instead of a describe per recall. */
const RUNNING_FOLLOW_UPS = `WorkflowType = 'followRecall' AND ExecutionStatus = 'Running'`;

/**
 * Starts again the follow-up of each open recall issued over `olderThanSeconds` ago whose workflow is
 * not running: its start was lost (the API stored the recall, then Temporal refused the signal-with-start
 * or the process died), or its run was terminated or its history lost. The reconciler's pass runs it
 * (batches/start-stranded-batches.ts). A follow-up started meanwhile (the list lags) is only signalled:
 * one more pass, no second run. Answers the recalls followed again.
 */
export async function followLostRecalls(
  sequelize: Sequelize,
  temporal: Client,
  taskQueue: string,
  olderThanSeconds: number,
  limit: number,
): Promise<string[]> {
  let open = await openRecallIds(sequelize, olderThanSeconds, limit);
  if (!open.length) return [];
  const running = new Set<string>();
  for await (const execution of temporal.workflow.list({ query: RUNNING_FOLLOW_UPS }))
    running.add(execution.workflowId);
  // Every open recall is looked at, page by page (most are followed for weeks); at most `limit` restarted a pass.
  const lost: string[] = [];
  while (open.length && lost.length < limit) {
    lost.push(...open.filter((id) => !running.has(recallWorkflowId(id))).slice(0, limit - lost.length));
    open = open.length < limit ? [] : await openRecallIds(sequelize, olderThanSeconds, limit, open.at(-1));
  }
  for (const id of lost) await signalRecallFollowUp(temporal, taskQueue, id);
  return lost;
}
