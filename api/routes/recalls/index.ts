import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import { resolveIds } from '../../../db/queries/inventory';
import { recallReach } from '../../../db/queries/recall-reach';
import {
  acknowledgeRecall,
  createRecall,
  issuedRecall,
  issuedRecalls,
  receivedNotice,
  receivedNotices,
  type NoticeRow,
  type RecallRow,
} from '../../../db/repositories/recalls';
import { wakeWebhookEndpoint } from '../../../platform/webhooks';
import { browserPageRouter } from '../../browser-page';
import { type APIContext, type AppCustom, type AppState } from '../../context';
import { problem } from '../../errors';
import { pairedWith, validate } from '../../middleware/validate';
import { pageBody, pageOf, validatePage } from '../../paging';
import { RECALLS_PAGE } from './page';
import { acknowledgeBody, createRecallBody, type AcknowledgeInput, type CreateRecallInput } from './schema';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const acknowledgementOf = (row: NoticeRow) =>
  row.acknowledged_at
    ? {
        time: new Date(row.acknowledged_at).toISOString(),
        quantityOnHand: Number(row.quantity_on_hand),
        action: row.action!,
      }
    : null;

/** A holder's state: told of the recall, or answered it. */
const noticeState = (row: NoticeRow): 'notified' | 'acknowledged' =>
  row.acknowledged_at ? 'acknowledged' : 'notified';

/**
 * A recall's state as its issuer sees it: open (it reached no other account: only the issuer's own
 * stock), notified (some holder has not answered yet), acknowledged (every holder answered).
 */
const recallState = (notices: NoticeRow[]): 'open' | 'notified' | 'acknowledged' =>
  !notices.length ? 'open' : notices.every((n) => n.acknowledged_at) ? 'acknowledged' : 'notified';

const recallPart = (row: RecallRow) => ({
  id: row.id,
  issuer: row.issuer_name,
  reason: row.reason,
  createdTime: new Date(row.created_at).toISOString(),
});

export const presentNotice = (row: NoticeRow) => ({
  ...recallPart(row),
  role: 'holder' as const,
  state: noticeState(row),
  ...row.notice,
  acknowledgement: acknowledgementOf(row),
});

async function wake(ctx: APIContext, endpoints: string[]): Promise<void> {
  for (const id of new Set(endpoints))
    await wakeWebhookEndpoint(ctx.deps.temporal, ctx.deps.config.taskQueue, id, {
      retrySeconds: ctx.deps.config.webhookRetrySeconds,
    });
}

/**
 * `/Integration/Recalls`: a recall reaches every account that holds the lot or a lot made from it (as
 * /Integration/Trace/recall finds them), each told only what its own trace shows; holders acknowledge,
 * the issuer sees who did. Notices and acknowledgements also go out as recall.received and
 * recall.acknowledged webhooks.
 */
export function recallsRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();

  router.post(
    '/Integration/Recalls',
    validate({ body: pairedWith<CreateRecallInput>()(createRecallBody) }),
    async (ctx) => {
      const input = ctx.state.input.body;
      const { sequelize } = ctx.deps;
      const issuer = ctx.state.account;
      const [productId] = await resolveIds(sequelize, 'products', issuer.id, [input.ProductId]);
      if (!productId)
        throw problem('unknown-product', {
          detail: `Product not found: ${input.ProductId}`,
          errors: { ProductId: [`No product ${input.ProductId} in this account.`] },
        });
      const holders = await recallReach(sequelize, { accountId: issuer.id, productId, lotSerial: input.LotSerial });
      const id = randomUUID();
      const createdTime = new Date().toISOString();
      const endpoints = await createRecall(
        sequelize,
        { id, issuerAccountId: issuer.id, productId, lotSerial: input.LotSerial, reason: input.Reason },
        holders,
        (holder) => ({
          id,
          issuer: issuer.name,
          reason: input.Reason,
          createdTime,
          ...holder.notice,
        }),
      );
      await wake(ctx, endpoints);
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

  router.get('/Integration/Recalls/issued', validatePage(), async (ctx) => {
    const page = pageOf(ctx.state.input.query);
    const { recalls, total } = await issuedRecalls(ctx.deps.sequelize, ctx.state.account.id, page);
    ctx.body = pageBody(page, total, recalls.map(presentIssued));
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
    if (!notice) throw problem('unknown-recall', { detail: `No recall ${id} issued by or sent to this account.` });
    ctx.body = presentNotice(notice);
  });

  router.post(
    '/Integration/Recalls/:id/acknowledge',
    validate({ body: pairedWith<AcknowledgeInput>()(acknowledgeBody) }),
    async (ctx) => {
      const { id } = ctx.params;
      const notice = UUID.test(id) ? await receivedNotice(ctx.deps.sequelize, ctx.state.account.id, id) : null;
      if (!notice) throw problem('unknown-recall', { detail: `No recall ${id} sent to this account.` });
      const input = ctx.state.input.body;
      const endpoints = await acknowledgeRecall(
        ctx.deps.sequelize,
        notice,
        { quantityOnHand: input.QuantityOnHand, action: input.Action },
        (at) => ({
          id,
          holder: notice.holder_name,
          lots: notice.received_lots,
          acknowledgement: { time: at.toISOString(), quantityOnHand: input.QuantityOnHand, action: input.Action },
        }),
      );
      await wake(ctx, endpoints);
      ctx.body = presentNotice((await receivedNotice(ctx.deps.sequelize, ctx.state.account.id, id))!);
    },
  );

  return router;
}

function presentIssued({ recall, notices }: { recall: RecallRow; notices: NoticeRow[] }) {
  return {
    ...recallPart(recall),
    role: 'issuer' as const,
    state: recallState(notices),
    productId: recall.product_external_id,
    lotSerial: recall.lot_serial,
    holders: notices.map((n) => ({
      account: n.holder_name,
      lots: n.received_lots,
      state: noticeState(n),
      acknowledgement: acknowledgementOf(n),
    })),
  };
}

export const recallsPageRouter = () => browserPageRouter('/recalls', RECALLS_PAGE);
