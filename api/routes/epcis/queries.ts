/**
 * Named queries and subscriptions of GS1's EPCIS 2.0 REST binding: POST/GET /epcis/queries,
 * GET/DELETE /epcis/queries/{queryName}, GET .../events (the query run now) and the subscriptions of a
 * query. A subscription's reports are EPCISQueryDocuments delivered like webhooks (workflows/
 * deliver-webhooks.ts): stream reports are owed when a batch completes, scheduled ones by a Temporal
 * Schedule per subscription. GET .../events upgraded to a WebSocket is a live subscription of its own
 * (query-socket.ts).
 */
import type Router from '@koa/router';
import type { ErrorObject } from 'ajv';
import { epcisQueryDocument } from '../../../db/queries/epcis-documents';
import { findEpcisEvents } from '../../../db/queries/epcis-events';
import {
  createNamedQuery,
  filterFromJson,
  findNamedQuery,
  findSubscription,
  listNamedQueries,
  listSubscriptions,
  type NamedQueryRow,
  type StoredFilter,
  type SubscriptionRow,
} from '../../../db/repositories/epcis-queries';
import { deleteQuery, endpointServices, subscribe, unsubscribe } from '../../../usecases/webhooks';
import type { APIContext, AppCustom, AppState } from '../../context';
import { problem } from '../../errors';
import { ajv } from '../../../platform/json-schema';
import { pairedWith } from '../../../domain/schemas/paired';
import { validate } from '../../middleware/validate';
import { epcFormatOf, filterOf, headerOr } from './events';
import { nextPageLink, pagedAfter, seqOfToken } from './paging';
import { isUuid } from '../../../db/sql';
import { queryProblem } from './presenter';
import { querySocket } from './query-socket';
import { extensionNamespaces } from './headers';
import type { Namespaces } from '../../../domain/epcis/event-hash';
import { createQueryBody, createSubscriptionBody, type CreateQueryInput } from '../../../contract/epcis/queries-schema';
import {
  epcFormatHeader,
  eventsPageQuery,
  eventsPerPageOf,
  eventsQuery,
  pageQuery,
  type EventsQuery,
} from '../../../contract/epcis/schema';

/** The errors that name a property the pointer goes on to: the parameter naming it, and what is wrong with it. */
const PROPERTY_ERRORS = new Map([
  ['additionalProperties', { param: 'additionalProperty', says: 'is not a known field' }],
  ['required', { param: 'missingProperty', says: 'is required' }],
]);

const bodyProblem = (errors: ErrorObject[]) =>
  problem('epcis-invalid-body', {
    issues: errors.map((e) => {
      const property = PROPERTY_ERRORS.get(e.keyword);
      const pointer = property ? `${e.instancePath}/${String(e.params[property.param])}` : e.instancePath;
      const name = pointer.split('/').filter(Boolean).join('.') || 'body';
      return { pointer, message: `${name} ${property?.says ?? e.message ?? 'is invalid'}.` };
    }),
  });

const checkParameters = ajv.compile(eventsQuery);

/** An EXISTS_ parameter as GS1's query schema writes it, an integer or null: given, so it filters. */
const isGiven = (name: string, value: unknown): boolean =>
  name.startsWith('EXISTS_') && (value === null || typeof value === 'number');

/** The stored query's parameters as GET /epcis/events takes them (lists joined by |), checked the same way. */
function filterOfQuery(accountId: string, query: CreateQueryInput['query'], namespaces: Namespaces): StoredFilter {
  const parameters: Record<string, string> = {};
  for (const [name, value] of Object.entries(query))
    parameters[name] = isGiven(name, value) ? 'true' : Array.isArray(value) ? value.join('|') : String(value);
  if (!checkParameters(parameters)) {
    throw problem('epcis-invalid-query', {
      issues: (checkParameters.errors ?? []).map((e) => ({
        pointer: `/query${e.instancePath}`,
        message: `query.${e.instancePath.slice(1)} ${e.message ?? 'is invalid'}.`,
      })),
    });
  }
  const {
    accountId: _account,
    limit: _limit,
    ...stored
  } = filterOf(accountId, parameters as EventsQuery, namespaces, { limit: 1 });
  return stored;
}

const queryBody = (row: NamedQueryRow) => ({
  name: row.name,
  query: row.query,
  createdAt: new Date(row.created_at).toISOString(),
});

function subscriptionBody(row: SubscriptionRow) {
  return {
    subscriptionID: row.id,
    queryName: row.query_name,
    dest: row.dest,
    createdAt: new Date(row.created_at).toISOString(),
    ...(row.last_notified_at ? { lastNotifiedAt: new Date(row.last_notified_at).toISOString() } : {}),
    initialRecordTime: new Date(row.initial_record_time).toISOString(),
    reportIfEmpty: row.report_if_empty,
    epcFormat: row.epc_format,
    ...(row.stream ? { stream: true } : { schedule: row.schedule }),
  };
}

async function namedQueryOf(ctx: APIContext): Promise<NamedQueryRow> {
  const found = await findNamedQuery(ctx.deps.sequelize, ctx.state.account.id, ctx.params.queryName);
  if (!found) throw unknownQuery(ctx.params.queryName);
  return found;
}

const unknownQuery = (name: string) =>
  problem('epcis-unknown-query', { detail: `No query named ${name} in this account.` });

const pageRequest = { query: pageQuery };
export function queriesRoutes(router: Router<AppState, AppCustom>): void {
  router.post(
    '/queries',
    validate({ body: pairedWith<CreateQueryInput>()(createQueryBody) }, bodyProblem),
    async (ctx) => {
      const { name, query } = ctx.state.input.body;
      // A named query's extension prefixes are read once, here: its subscriptions run without a request.
      const filter = filterOfQuery(ctx.state.account.id, query, extensionNamespaces(ctx, query));
      const created = await createNamedQuery(ctx.deps.sequelize, ctx.state.account.id, name, query, filter);
      if (!created)
        throw problem('epcis-duplicate-query', { detail: `This account already has a query named ${name}.` });
      ctx.status = 201;
      ctx.set('Location', `/epcis/queries/${name}`);
      ctx.body = queryBody(created);
    },
  );

  router.get('/queries', validate(pageRequest, queryProblem), async (ctx) => {
    ctx.body = (
      await pagedAfter(
        ctx,
        ctx.state.input.query,
        (from, limit) => listNamedQueries(ctx.deps.sequelize, ctx.state.account.id, from, limit),
        (row) => row.name,
      )
    ).map(queryBody);
  });

  router.get('/queries/:queryName', async (ctx) => {
    ctx.body = queryBody(await namedQueryOf(ctx));
  });

  router.delete('/queries/:queryName', async (ctx) => {
    if (!(await deleteQuery(endpointServices(ctx.deps), ctx.state.account.id, ctx.params.queryName)))
      throw unknownQuery(ctx.params.queryName);
    ctx.status = 204;
  });

  router.get('/queries/:queryName/events', querySocket(namedQueryOf));
  router.get(
    '/queries/:queryName/events',
    validate({ headers: epcFormatHeader, query: eventsPageQuery }, headerOr(queryProblem)),
    async (ctx) => {
      const named = await namedQueryOf(ctx);
      const format = epcFormatOf(ctx);
      const page = ctx.state.input.query;
      const accountId = ctx.state.account.id;
      const found = await findEpcisEvents(ctx.deps.sequelize, {
        ...filterFromJson(named.filter),
        accountId,
        afterSeq: seqOfToken(page.nextPageToken),
        limit: eventsPerPageOf(page),
      });
      nextPageLink(ctx, found.next?.seq);
      ctx.set('GS1-EPC-Format', format);
      ctx.body = await epcisQueryDocument(ctx.deps.sequelize, accountId, format, found, { queryName: named.name });
    },
  );

  router.post(
    '/queries/:queryName/subscriptions',
    validate({ headers: epcFormatHeader, body: createSubscriptionBody }, headerOr(bodyProblem)),
    async (ctx) => {
      const { queryName } = ctx.params;
      const outcome = await subscribe(endpointServices(ctx.deps), {
        accountId: ctx.state.account.id,
        queryName,
        epcFormat: epcFormatOf(ctx),
        input: ctx.state.input.body,
      });
      if (outcome.kind === 'unknownQuery') throw unknownQuery(queryName);
      if (outcome.kind === 'refused') throw problem(outcome.code, { issues: outcome.issues });
      ctx.status = 201;
      ctx.set('Location', `/epcis/queries/${queryName}/subscriptions/${outcome.subscription.id}`);
      ctx.body = subscriptionBody(outcome.subscription);
    },
  );

  router.get('/queries/:queryName/subscriptions', validate(pageRequest, queryProblem), async (ctx) => {
    const named = await namedQueryOf(ctx);
    ctx.body = (
      await pagedAfter(
        ctx,
        ctx.state.input.query,
        (from, limit) => listSubscriptions(ctx.deps.sequelize, ctx.state.account.id, named.name, from, limit),
        (row) => row.id,
        isUuid,
      )
    ).map(subscriptionBody);
  });

  router.get('/queries/:queryName/subscriptions/:subscriptionID', async (ctx) => {
    ctx.body = subscriptionBody(await subscriptionOf(ctx));
  });

  router.delete('/queries/:queryName/subscriptions/:subscriptionID', async (ctx) => {
    await unsubscribe(endpointServices(ctx.deps), ctx.state.account.id, (await subscriptionOf(ctx)).id);
    ctx.status = 204;
  });
}

async function subscriptionOf(ctx: APIContext): Promise<SubscriptionRow> {
  const named = await namedQueryOf(ctx);
  const found = await findSubscription(ctx.deps.sequelize, ctx.state.account.id, named.name, ctx.params.subscriptionID);
  if (!found)
    throw problem('epcis-unknown-subscription', {
      detail: `No subscription ${ctx.params.subscriptionID} of query ${named.name}.`,
    });
  return found;
}
