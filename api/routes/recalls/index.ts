import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import { resolveIds } from '../../../db/queries/inventory';
import { recallConsignees, type RecallConsignee } from '../../../db/queries/recall-reach';
import {
  acknowledgeRecall,
  closeRecall,
  createRecall,
  issuedRecall,
  passRecallOn,
  recallAccounts,
  receivedNotice,
  receivedNotices,
  type NoticeRow,
  type RecallRow,
} from '../../../db/repositories/recalls';
import {
  checkPercentOf,
  consigneeFigures,
  DEFAULT_REMINDERS,
  effectivenessTotals,
  type LotAnswer,
} from '../../../domain/recall-strategy';
import { signalRecallFollowUp } from '../../../platform/recalls';
import { wakeWebhookEndpoint } from '../../../platform/webhooks';
import { type APIContext, type AppCustom, type AppState } from '../../context';
import { conflict, notFound, problem, validationProblem } from '../../errors';
import { pairedWith, validate } from '../../middleware/validate';
import { pageBody, pageOf, validatePage } from '../../paging';
import { CSV_TYPE, csvField } from '../trace/spreadsheet';
import {
  acknowledgeBody,
  closeRecallBody,
  createRecallBody,
  type AcknowledgeInput,
  type CloseRecallInput,
  type CreateRecallInput,
  EFFECTIVENESS_COLUMNS,
} from './schema';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const iso = (at: Date | string): string => new Date(at).toISOString();
const isoOrNull = (at: Date | string | null): string | null => (at ? iso(at) : null);

const acknowledgementOf = (row: NoticeRow) =>
  row.acknowledged_at
    ? {
        time: iso(row.acknowledged_at),
        quantityOnHand: Number(row.quantity_on_hand),
        action: row.action!,
        lots: row.lot_answers,
      }
    : null;

const strategyOf = (
  row: Pick<RecallRow, 'depth' | 'check_level' | 'check_percent' | 'remind_every_seconds' | 'overdue_after_reminders'>,
) => ({
  depth: row.depth,
  effectivenessCheck: { level: row.check_level, percent: Number(row.check_percent) },
  reminders: { everySeconds: row.remind_every_seconds, overdueAfter: row.overdue_after_reminders },
});

const recallPart = (row: RecallRow) => ({
  id: row.id,
  issuer: row.issuer_name,
  reason: row.reason,
  createdTime: iso(row.created_at),
  strategy: strategyOf(row),
  state: row.closed_at ? ('Closed' as const) : ('Open' as const),
  closed: row.closed_at
    ? { time: iso(row.closed_at), reason: row.close_reason, levelMet: Boolean(row.closed_level_met) }
    : null,
});

const followUpOf = (row: NoticeRow) => ({
  tier: row.tier,
  notifiedTime: iso(row.notified_at),
  reminders: row.reminded_at.map(iso),
  overdueTime: isoOrNull(row.overdue_at),
  passedOnTime: isoOrNull(row.passed_on_at),
});

export const presentNotice = (row: NoticeRow) => ({
  ...recallPart(row),
  role: 'holder' as const,
  ...followUpOf(row),
  shipped: row.shipped,
  ...row.notice,
  acknowledgement: acknowledgementOf(row),
});

async function wake(ctx: APIContext, endpoints: string[]): Promise<void> {
  for (const id of new Set(endpoints))
    await wakeWebhookEndpoint(ctx.deps.temporal, ctx.deps.config.taskQueue, id, {
      retrySeconds: ctx.deps.config.webhookRetrySeconds,
    });
}

/** Starts the recall's follow-up before the recall is stored: a recall is never stored without one. */
const startFollowUp = (ctx: APIContext, recallId: string): Promise<void> =>
  signalRecallFollowUp(ctx.deps.temporal, ctx.deps.config.taskQueue, recallId);

/**
 * After a commit that changes what the recall's follow-up waits for, its workflow is told to read the
 * rows again. Only sooner: its next pass (at the next due reminder, within the hour) reads them anyway, so
 * a failed signal is logged, not answered as an error for a change that was stored.
 */
async function followUp(ctx: APIContext, recallId: string): Promise<void> {
  try {
    await signalRecallFollowUp(ctx.deps.temporal, ctx.deps.config.taskQueue, recallId);
  } catch (error) {
    ctx.deps.logger.warn(
      { err: error, recallId },
      'could not signal the recall follow-up; its next pass reads the change',
    );
  }
}

/** What a consignee's recall.received carries: its notice, as GET /Integration/Recalls/{id} shows it when it arrives. */
const noticeData = (recall: ReturnType<typeof recallPart>) => (consignee: RecallConsignee) => ({
  ...recall,
  shipped: consignee.shipped,
  ...consignee.notice,
});

const closedConflict = (id: string) => conflict(`Recall ${id} is closed.`);

/**
 * `/Integration/Recalls`: a recall reaches the accounts the issuer's shipments of the lot (or of lots
 * made from it) reached, each told only what its own trace shows; a consignee passes it on to its own
 * consignees, answers what became of each lot, and is reminded until it does (the recall's Temporal
 * workflow, workflows/follow-recall.ts); the issuer sees the effectiveness and closes it. Every step
 * also goes out as a webhook: recall.received, .acknowledged, .reminder, .overdue, .closed.
 */
export function recallsRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();

  router.post(
    '/Integration/Recalls',
    validate({ body: pairedWith<CreateRecallInput>()(createRecallBody) }, undefined, ({ body }) => {
      const check = body.EffectivenessCheck;
      const percent = check ? checkPercentOf(check.Level, check.Percent) : 100;
      return typeof percent === 'string'
        ? validationProblem({ [`EffectivenessCheck.${check?.Level === 'B' ? 'Percent' : 'Level'}`]: [percent] })
        : undefined;
    }),
    async (ctx) => {
      const input = ctx.state.input.body;
      const { sequelize } = ctx.deps;
      const issuer = ctx.state.account;
      const [productId] = await resolveIds(sequelize, 'products', issuer.id, [input.ProductId]);
      if (!productId)
        throw problem(404, `Product not found: ${input.ProductId}`, {
          errors: { ProductId: [`No product ${input.ProductId} in this account.`] },
        });
      const level = input.EffectivenessCheck?.Level ?? 'A';
      const strategy = {
        depth: input.Depth ?? 'Consumer',
        checkLevel: level,
        checkPercent: checkPercentOf(level, input.EffectivenessCheck?.Percent) as number,
        remindEverySeconds: input.Reminders?.EverySeconds ?? DEFAULT_REMINDERS.everySeconds,
        overdueAfterReminders: input.Reminders?.OverdueAfter ?? DEFAULT_REMINDERS.overdueAfter,
      };
      const recalled = { accountId: issuer.id, productId, lotSerial: input.LotSerial };
      const consignees = await recallConsignees(sequelize, recalled, [recalled], new Set([issuer.id]));
      const id = randomUUID();
      await startFollowUp(ctx, id);
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
          strategy: strategyOf({
            depth: strategy.depth,
            check_level: strategy.checkLevel,
            check_percent: String(strategy.checkPercent),
            remind_every_seconds: strategy.remindEverySeconds,
            overdue_after_reminders: strategy.overdueAfterReminders,
          }),
          state: 'Open',
          closed: null,
        }),
      );
      await wake(ctx, endpoints);
      await followUp(ctx, id);
      const found = (await issuedRecall(sequelize, issuer.id, id))!;
      ctx.status = 201;
      ctx.set('Location', `/Integration/Recalls/${id}`);
      ctx.body = presentIssued(found);
    },
  );

  router.get('/Integration/Recalls', validatePage(), async (ctx) => {
    const page = pageOf(ctx.state.input.query);
    const { rows, total } = await receivedNotices(ctx.deps.sequelize, ctx.state.account.id, page);
    ctx.body = pageBody(page, total, rows.map(presentNotice));
  });

  router.get('/Integration/Recalls/:id', async (ctx) => {
    const { id } = ctx.params;
    const accountId = ctx.state.account.id;
    const issued = UUID.test(id) ? await issuedRecall(ctx.deps.sequelize, accountId, id) : null;
    if (issued) {
      ctx.body = presentIssued(issued);
      return;
    }
    const notice = UUID.test(id) ? await receivedNotice(ctx.deps.sequelize, accountId, id) : null;
    if (!notice) throw notFound(`No recall ${id} issued by or sent to this account.`);
    ctx.body = presentNotice(notice);
  });

  router.get('/Integration/Recalls/:id/effectiveness.csv', async (ctx) => {
    const { id } = ctx.params;
    const issued = UUID.test(id) ? await issuedRecall(ctx.deps.sequelize, ctx.state.account.id, id) : null;
    if (!issued) throw notFound(`No recall ${id} issued by this account.`);
    ctx.set('Content-Disposition', `attachment; filename="recall-${id}-effectiveness.csv"`);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = `${CSV_TYPE}; charset=utf-8`;
    ctx.body = effectivenessCsv(presentIssued(issued).holders);
  });

  router.post(
    '/Integration/Recalls/:id/acknowledge',
    validate({ body: pairedWith<AcknowledgeInput>()(acknowledgeBody) }),
    async (ctx) => {
      const { id } = ctx.params;
      const notice = UUID.test(id) ? await receivedNotice(ctx.deps.sequelize, ctx.state.account.id, id) : null;
      if (!notice) throw notFound(`No recall ${id} sent to this account.`);
      const input = ctx.state.input.body;
      const lots = lotAnswersOf(notice, input.Lots);
      const acknowledged = await acknowledgeRecall(
        ctx.deps.sequelize,
        notice,
        { quantityOnHand: input.QuantityOnHand, action: input.Action, lots },
        (at) => ({
          id,
          holder: notice.holder_name,
          lots: notice.received_lots,
          acknowledgement: {
            time: at.toISOString(),
            quantityOnHand: input.QuantityOnHand,
            action: input.Action,
            lots,
          },
        }),
      );
      if (acknowledged === 'closed') throw closedConflict(id);
      await wake(ctx, acknowledged);
      await followUp(ctx, id);
      ctx.body = presentNotice((await receivedNotice(ctx.deps.sequelize, ctx.state.account.id, id))!);
    },
  );

  router.post('/Integration/Recalls/:id/pass-on', async (ctx) => {
    const { id } = ctx.params;
    const { sequelize } = ctx.deps;
    const notice = UUID.test(id) ? await receivedNotice(sequelize, ctx.state.account.id, id) : null;
    if (!notice) throw notFound(`No recall ${id} sent to this account.`);
    if (notice.closed_at) throw closedConflict(id);
    const recalled = {
      accountId: notice.issuer_account_id,
      productId: notice.product_id,
      lotSerial: notice.lot_serial,
    };
    const consignees = await recallConsignees(
      sequelize,
      recalled,
      notice.sources,
      await recallAccounts(sequelize, notice),
    );
    const passed = await passRecallOn(sequelize, notice, consignees, noticeData(recallPart(notice)));
    if (passed === 'closed') throw closedConflict(id);
    await wake(ctx, passed.endpoints);
    await followUp(ctx, id);
    const after = (await receivedNotice(sequelize, ctx.state.account.id, id))!;
    ctx.body = {
      id,
      passedOnTime: iso(after.passed_on_at!),
      reached: consignees.map((c) => ({ account: c.accountName, lots: c.receivedLots, shipped: c.shipped })),
    };
  });

  router.post(
    '/Integration/Recalls/:id/close',
    validate({ body: pairedWith<CloseRecallInput>()(closeRecallBody) }),
    async (ctx) => {
      const { id } = ctx.params;
      const { sequelize } = ctx.deps;
      const issued = UUID.test(id) ? await issuedRecall(sequelize, ctx.state.account.id, id) : null;
      if (!issued) throw notFound(`No recall ${id} issued by this account.`);
      if (issued.recall.closed_at) throw closedConflict(id);
      const { effectiveness } = effectivenessOf(issued);
      const reason = ctx.state.input.body.Reason ?? null;
      if (!effectiveness.levelMet && !reason)
        throw validationProblem({
          Reason: [
            `The effectiveness check (level ${issued.recall.check_level}: ${effectiveness.required} of ${effectiveness.consignees} consignees answered) is not met, ${effectiveness.acknowledged} answered: say in Reason why you close the recall.`,
          ],
        });
      const closed = await closeRecall(
        sequelize,
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
      if (closed === 'closed') throw closedConflict(id);
      await wake(ctx, closed);
      await followUp(ctx, id);
      ctx.body = presentIssued((await issuedRecall(sequelize, ctx.state.account.id, id))!);
    },
  );

  return router;
}

/** The consignee's per-lot answer, keyed by the lots it received; a lot it did not receive, or named twice, is a 400 naming it. */
function lotAnswersOf(notice: NoticeRow, lots: AcknowledgeInput['Lots']): LotAnswer[] | null {
  if (!lots) return null;
  const errors: Record<string, string[]> = {};
  const seen = new Set<string>();
  lots.forEach((lot, i) => {
    if (!notice.received_lots.includes(lot.LotSerial))
      errors[`Lots[${i}].LotSerial`] = [
        `${lot.LotSerial} is not a lot you received of this recall; yours: ${notice.received_lots.join(', ')}.`,
      ];
    else if (seen.has(lot.LotSerial)) errors[`Lots[${i}].LotSerial`] = [`${lot.LotSerial} is named twice.`];
    seen.add(lot.LotSerial);
  });
  if (Object.keys(errors).length) throw validationProblem(errors);
  return lots.map((lot) => ({
    lotSerial: lot.LotSerial,
    onHand: lot.OnHand ?? 0,
    returned: lot.Returned ?? 0,
    destroyed: lot.Destroyed ?? 0,
    soldOn: lot.SoldOn ?? 0,
  }));
}

/** One row per consignee and lot it received, in the issuer's view's order (tier, then name). */
function effectivenessCsv(holders: ReturnType<typeof presentIssued>['holders']): string {
  const lines = [EFFECTIVENESS_COLUMNS.join(',')];
  for (const h of holders)
    for (const lot of h.quantities)
      lines.push(
        [
          h.account,
          h.tier,
          h.via,
          h.state,
          h.notifiedTime,
          h.acknowledgement?.time ?? '',
          h.reminders.length,
          h.overdueTime ?? '',
          h.passedOnTime ?? '',
          lot.lotSerial,
          lot.unit,
          lot.quantity,
          lot.onHand,
          lot.returned,
          lot.destroyed,
          lot.soldOn,
          lot.accountedFor,
          lot.outstanding,
        ]
          .map(csvField)
          .join(','),
      );
  return `${lines.join('\n')}\n`;
}

function effectivenessOf({ recall, notices }: { recall: RecallRow; notices: NoticeRow[] }) {
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

function presentIssued(issued: { recall: RecallRow; notices: NoticeRow[] }) {
  const { recall } = issued;
  const { consignees, effectiveness } = effectivenessOf(issued);
  return {
    ...recallPart(recall),
    role: 'issuer' as const,
    productId: recall.product_external_id,
    lotSerial: recall.lot_serial,
    effectiveness,
    holders: consignees.map(({ notice: n, figures }) => ({
      account: n.holder_name,
      lots: n.received_lots,
      acknowledgement: acknowledgementOf(n),
      via: n.via_name ?? recall.issuer_name,
      state: figures.state,
      ...followUpOf(n),
      quantities: figures.lots,
    })),
  };
}
