import Router from '@koa/router';
import { issuedRecalls, receivedNotices } from '../../../db/repositories/recalls';
import {
  answerRecall,
  closeRecall,
  findIssued,
  findNotice,
  issueRecall,
  passRecallOn,
  type RecallServices,
  type RecordEvents,
} from '../../../usecases/recalls';
import { submitBatch } from '../../../batches/submit';
import { browserPageRouter } from '../../browser-page';
import { type APIContext, type AppCustom, type AppState } from '../../context';
import { problem, unknownLot, unknownProduct, validationProblem } from '../../errors';
import { validate } from '../../middleware/validate';
import { pageBody, pageOf, validatePage } from '../../paging';
import { outcomeProblem } from '../events/batch';
import { statusUrl } from '../events/presenter';
import { sendSpreadsheet } from '../../spreadsheet';
import { RECALLS_PAGE } from './page';
import { effectivenessCsv, effectivenessXlsx, presentIssued, presentNotice } from './presenter';
import { acknowledgeBody, closeRecallBody, createRecallBody } from '../../../contract/recalls/schema';

/**
 * The recall's events (a holder's decommissions) go through the batch pipeline as a sync batch of the
 * holder's. What it cannot wait for is answered as POST /Integration/Events answers it, with the batch
 * to follow; the answer is not stored, and sent again it records nothing twice.
 */
const recordEventsOf =
  (ctx: APIContext): RecordEvents =>
  async (account, events) => {
    const { batch, outcome } = await submitBatch(
      ctx.deps,
      {
        accountId: account.id,
        accountName: account.name,
        mode: 'sync',
        request: { Events: events },
        eventCount: events.length,
        requestId: ctx.state.requestId,
      },
      { wait: true },
    );
    switch (outcome.kind) {
      case 'completed':
        return { kind: 'recorded' };
      case 'rejected':
        return { kind: 'refused', errors: outcome.errors };
      case 'pending':
        throw problem('batch-not-started', {
          detail: `The decommission of the destroyed quantities (batch ${batch.id}) is still under way; your answer is not stored yet. Once statusUrl shows it Completed, send the answer again: nothing is recorded twice.`,
          batchId: batch.id,
          statusUrl: statusUrl(batch.id),
        });
      default:
        throw outcomeProblem(batch.id, outcome);
    }
  };

const servicesOf = (ctx: APIContext): RecallServices => ({
  sequelize: ctx.deps.sequelize,
  temporal: ctx.deps.temporal,
  taskQueue: ctx.deps.config.taskQueue,
  webhookRetrySeconds: ctx.deps.config.webhookRetrySeconds,
  logger: ctx.deps.logger,
  recordEvents: recordEventsOf(ctx),
});

const notSentHere = (id: string) => problem('unknown-recall', { detail: `No recall ${id} sent to this account.` });
const notIssuedHere = (id: string) => problem('unknown-recall', { detail: `No recall ${id} issued by this account.` });
const closedConflict = (id: string) => problem('recall-closed', { detail: `Recall ${id} is closed.` });

/**
 * `/Integration/Recalls` (usecases/recalls.ts): a recall reaches the accounts the issuer's shipments of
 * the lot (or of lots made from it) reached, each told only what its own trace shows; a consignee passes
 * it on to its own consignees, answers what became of each lot, and is reminded until it does (the
 * recall's Temporal workflow, workflows/follow-recall.ts); the issuer sees the effectiveness and closes
 * it. Every step also goes out as a webhook: recall.received, .acknowledged, .reminder, .overdue, .closed.
 */
export function recallsRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();

  router.post('/Integration/Recalls', validate({ body: createRecallBody }), async (ctx) => {
    const body = ctx.state.input.body;
    const outcome = await issueRecall(servicesOf(ctx), ctx.state.account, body);
    if (outcome.kind === 'invalidStrategy')
      throw validationProblem({
        [`EffectivenessCheck.${body.EffectivenessCheck?.Level === 'B' ? 'Percent' : 'Level'}`]: [outcome.problem],
      });
    if (outcome.kind === 'productNotFound') throw unknownProduct(body.ProductId);
    if (outcome.kind === 'lotNotFound') throw unknownLot(body.ProductId, body.LotSerial);
    ctx.status = 201;
    ctx.set('Location', `/Integration/Recalls/${outcome.issued.recall.id}`);
    ctx.body = presentIssued(outcome.issued);
  });

  router.get('/Integration/Recalls', validatePage(), async (ctx) => {
    const page = pageOf(ctx.state.input.query);
    const { rows, total } = await receivedNotices(ctx.deps.sequelize, ctx.state.account.id, page);
    ctx.body = pageBody(page, total, rows.map(presentNotice));
  });

  router.get('/Integration/Recalls/issued', validatePage(), async (ctx) => {
    const page = pageOf(ctx.state.input.query);
    const { recalls, total } = await issuedRecalls(ctx.deps.sequelize, ctx.state.account.id, page);
    ctx.body = pageBody(page, total, recalls.map(presentIssued));
  });

  router.get('/Integration/Recalls/:id', async (ctx) => {
    const { id } = ctx.params;
    const services = servicesOf(ctx);
    const issued = await findIssued(services, ctx.state.account.id, id);
    if (issued) {
      ctx.body = presentIssued(issued);
      return;
    }
    const notice = await findNotice(services, ctx.state.account.id, id);
    if (!notice) throw problem('unknown-recall', { detail: `No recall ${id} issued by or sent to this account.` });
    ctx.body = presentNotice(notice);
  });

  for (const format of ['csv', 'xlsx'] as const)
    router.get(`/Integration/Recalls/:id/effectiveness.${format}`, async (ctx) => {
      const { id } = ctx.params;
      const issued = await findIssued(servicesOf(ctx), ctx.state.account.id, id);
      if (!issued) throw notIssuedHere(id);
      await sendSpreadsheet(ctx, `recall-${id}-effectiveness`, format, {
        csv: () => effectivenessCsv(issued),
        xlsx: () => effectivenessXlsx(issued),
      });
    });

  router.post('/Integration/Recalls/:id/acknowledge', validate({ body: acknowledgeBody }), async (ctx) => {
    const { id } = ctx.params;
    const outcome = await answerRecall(servicesOf(ctx), ctx.state.account.id, id, ctx.state.input.body);
    if (outcome.kind === 'notFound') throw notSentHere(id);
    if (outcome.kind === 'alreadyClosed') throw closedConflict(id);
    if (outcome.kind === 'lotsRefused')
      throw validationProblem(
        Object.fromEntries(
          outcome.lots.map(({ index, field, problem }) => [`Lots[${index}]${field ? `.${field}` : ''}`, [problem]]),
        ),
      );
    ctx.body = presentNotice(outcome.notice);
  });

  router.post('/Integration/Recalls/:id/pass-on', async (ctx) => {
    const { id } = ctx.params;
    const outcome = await passRecallOn(servicesOf(ctx), ctx.state.account.id, id);
    if (outcome.kind === 'notFound') throw notSentHere(id);
    if (outcome.kind === 'alreadyClosed') throw closedConflict(id);
    ctx.body = {
      id,
      passedOnTime: outcome.passedOnTime.toISOString(),
      reached: outcome.reached.map((c) => ({ account: c.accountName, lots: c.receivedLots, shipped: c.shipped })),
    };
  });

  router.post('/Integration/Recalls/:id/close', validate({ body: closeRecallBody }), async (ctx) => {
    const { id } = ctx.params;
    const outcome = await closeRecall(servicesOf(ctx), ctx.state.account.id, id, ctx.state.input.body.Reason ?? null);
    if (outcome.kind === 'notFound') throw notIssuedHere(id);
    if (outcome.kind === 'alreadyClosed') throw closedConflict(id);
    if (outcome.kind === 'levelNotMet') {
      const { acknowledged, required, consignees } = outcome.effectiveness;
      throw validationProblem({
        Reason: [
          `The effectiveness check is not met: level ${outcome.issued.recall.check_level} takes answers from ${required} of the ${consignees} consignees, ${acknowledged} answered. Say in Reason why you close the recall.`,
        ],
      });
    }
    ctx.body = presentIssued(outcome.issued);
  });

  return router;
}

export const recallsPageRouter = () => browserPageRouter('/recalls', RECALLS_PAGE);
