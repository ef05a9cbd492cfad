import Router from '@koa/router';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  findWebhookDelivery,
  findWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverWebhook,
  type WebhookEndpointRow,
} from '../../../db/repositories/webhooks';
import { destinationProblem, wakeWebhookEndpoint } from '../../../platform/webhooks';
import { type APIContext, type AppCustom, type AppState } from '../../context';
import { problem, validationProblem } from '../../errors';
import { pairedWith } from '../../../domain/schemas/paired';
import { validate } from '../../middleware/validate';
import { pageBody, pageOf, validatePage } from '../../paging';
import { presentWebhookDelivery, presentWebhookEndpoint } from './presenter';
import { createWebhookBody, listWebhooksQuery, type CreateWebhookInput, type ListWebhooksQuery } from './schema';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function endpointOf(ctx: APIContext): Promise<WebhookEndpointRow> {
  const id = ctx.params.id;
  const found = UUID.test(id) ? await findWebhookEndpoint(ctx.deps.sequelize, ctx.state.account.id, id) : null;
  if (!found) throw problem('unknown-webhook-endpoint', { detail: `No webhook endpoint ${id} in this account.` });
  return found;
}

const wake = (ctx: APIContext, endpointId: string): Promise<void> =>
  wakeWebhookEndpoint(ctx.deps.temporal, ctx.deps.config.taskQueue, endpointId, {
    retrySeconds: ctx.deps.config.webhookRetrySeconds,
  });

/**
 * `/Integration/Webhooks`: an account's endpoints for batch and recall notifications, the deliveries
 * each was owed (with every attempt), and redelivery on demand. Delivery itself is the endpoint's
 * Temporal workflow (workflows/deliver-webhooks.ts).
 */
export function webhooksRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();

  router.post(
    '/Integration/Webhooks',
    validate({ body: pairedWith<CreateWebhookInput>()(createWebhookBody) }),
    async (ctx) => {
      const { Url: url, Events: events } = ctx.state.input.body;
      const unusable = await destinationProblem(url, ctx.deps.config.webhookAllowedHosts);
      if (unusable) throw validationProblem({ Url: [`Url ${unusable}`] });
      const secret = `whsec_${randomBytes(32).toString('base64')}`;
      const row = await createWebhookEndpoint(ctx.deps.sequelize, {
        id: randomUUID(),
        accountId: ctx.state.account.id,
        url,
        events,
        secret,
      });
      // Its delivery workflow runs from now on: should a later commit's wake-up be lost (the API dying
      // between commit and signal), the workflow's idle timer still finds what is owed.
      await wake(ctx, row.id);
      ctx.status = 201;
      ctx.set('Location', `/Integration/Webhooks/${row.id}`);
      ctx.body = { ...presentWebhookEndpoint(row), secret };
    },
  );

  router.get(
    '/Integration/Webhooks',
    validate({ query: pairedWith<ListWebhooksQuery>()(listWebhooksQuery) }),
    async (ctx) => {
      const query = ctx.state.input.query;
      const page = pageOf(query);
      // A support key sees every account's endpoints (the support page lists the failing ones).
      const scope = ctx.state.caller.role === 'support' ? 'all' : { accountId: ctx.state.account.id };
      const { rows, total } = await listWebhookEndpoints(ctx.deps.sequelize, scope, { status: query.Status }, page);
      ctx.body = pageBody(page, total, rows.map(presentWebhookEndpoint));
    },
  );

  router.get('/Integration/Webhooks/:id', async (ctx) => {
    ctx.body = presentWebhookEndpoint(await endpointOf(ctx));
  });

  router.delete('/Integration/Webhooks/:id', async (ctx) => {
    const endpoint = await endpointOf(ctx);
    await deleteWebhookEndpoint(ctx.deps.sequelize, ctx.state.account.id, endpoint.id);
    // Its workflow reads the deletion and ends.
    await wake(ctx, endpoint.id);
    ctx.body = presentWebhookEndpoint(endpoint);
  });

  router.get('/Integration/Webhooks/:id/deliveries', validatePage(), async (ctx) => {
    const endpoint = await endpointOf(ctx);
    const page = pageOf(ctx.state.input.query);
    const { rows, total } = await listWebhookDeliveries(ctx.deps.sequelize, endpoint.id, page);
    ctx.body = pageBody(page, total, rows.map(presentWebhookDelivery));
  });

  router.post('/Integration/Webhooks/:id/deliveries/:deliveryId/redeliver', async (ctx) => {
    const endpoint = await endpointOf(ctx);
    const { sequelize } = ctx.deps;
    if (!(await findWebhookDelivery(sequelize, endpoint.id, ctx.params.deliveryId))) {
      throw problem('unknown-webhook-delivery', {
        detail: `No delivery ${ctx.params.deliveryId} for webhook endpoint ${endpoint.id}.`,
      });
    }
    await redeliverWebhook(sequelize, endpoint.id, ctx.params.deliveryId);
    await wake(ctx, endpoint.id);
    ctx.status = 202;
    ctx.body = presentWebhookDelivery((await findWebhookDelivery(sequelize, endpoint.id, ctx.params.deliveryId))!);
  });

  return router;
}
