import Router from '@koa/router';
import { listWebhookDeliveries, listWebhookEndpoints } from '../../../db/repositories/webhooks';
import {
  deleteWebhook,
  endpointServices,
  findEndpoint,
  redeliverWebhook,
  registerWebhook,
} from '../../../usecases/webhooks';
import { type APIContext, type AppCustom, type AppState } from '../../context';
import { problem, validationProblem } from '../../errors';
import { validate } from '../../middleware/validate';
import { pageBody, pageOf, validatePage } from '../../paging';
import { presentWebhookDelivery, presentWebhookEndpoint } from './presenter';
import { createWebhookBody, listWebhooksQuery } from '../../../contract/webhooks/schema';

const unknownEndpoint = (id: string) =>
  problem('unknown-webhook-endpoint', { detail: `No webhook endpoint ${id} in this account.` });

async function endpointOf(ctx: APIContext) {
  const found = await findEndpoint(endpointServices(ctx.deps), ctx.state.account.id, ctx.params.id);
  if (!found) throw unknownEndpoint(ctx.params.id);
  return found;
}

/**
 * `/Integration/Webhooks`: an account's endpoints for batch and recall notifications, the deliveries
 * each was owed (with every attempt), and redelivery on demand. Delivery itself is the endpoint's
 * Temporal workflow (workflows/deliver-webhooks.ts).
 */
export function webhooksRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();

  router.post('/Integration/Webhooks', validate({ body: createWebhookBody }), async (ctx) => {
    const { Url: url, Events: events } = ctx.state.input.body;
    const outcome = await registerWebhook(endpointServices(ctx.deps), {
      accountId: ctx.state.account.id,
      url,
      events,
    });
    if (outcome.kind === 'unusableUrl') throw validationProblem({ Url: [outcome.problem] });
    ctx.status = 201;
    ctx.set('Location', `/Integration/Webhooks/${outcome.endpoint.id}`);
    ctx.body = { ...presentWebhookEndpoint(outcome.endpoint), secret: outcome.secret };
  });

  router.get('/Integration/Webhooks', validate({ query: listWebhooksQuery }), async (ctx) => {
    const query = ctx.state.input.query;
    const page = pageOf(query);
    // A support key sees every account's endpoints (the support page lists the failing ones).
    const scope = ctx.state.caller.role === 'support' ? 'all' : { accountId: ctx.state.account.id };
    const { rows, total } = await listWebhookEndpoints(ctx.deps.sequelize, scope, { status: query.Status }, page);
    ctx.body = pageBody(page, total, rows.map(presentWebhookEndpoint));
  });

  router.get('/Integration/Webhooks/:id', async (ctx) => {
    ctx.body = presentWebhookEndpoint(await endpointOf(ctx));
  });

  router.delete('/Integration/Webhooks/:id', async (ctx) => {
    const deleted = await deleteWebhook(endpointServices(ctx.deps), ctx.state.account.id, ctx.params.id);
    if (!deleted) throw unknownEndpoint(ctx.params.id);
    ctx.body = presentWebhookEndpoint(deleted);
  });

  router.get('/Integration/Webhooks/:id/deliveries', validatePage(), async (ctx) => {
    const endpoint = await endpointOf(ctx);
    const page = pageOf(ctx.state.input.query);
    const { rows, total } = await listWebhookDeliveries(ctx.deps.sequelize, endpoint.id, page);
    ctx.body = pageBody(page, total, rows.map(presentWebhookDelivery));
  });

  router.post('/Integration/Webhooks/:id/deliveries/:deliveryId/redeliver', async (ctx) => {
    const { id, deliveryId } = ctx.params;
    const outcome = await redeliverWebhook(endpointServices(ctx.deps), ctx.state.account.id, id, deliveryId);
    if (outcome.kind === 'unknownEndpoint') throw unknownEndpoint(id);
    if (outcome.kind === 'unknownDelivery')
      throw problem('unknown-webhook-delivery', { detail: `No delivery ${deliveryId} for webhook endpoint ${id}.` });
    ctx.status = 202;
    ctx.body = presentWebhookDelivery(outcome.delivery);
  });

  return router;
}
