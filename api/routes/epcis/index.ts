import Router from '@koa/router';
import { Op, literal, type FindAttributeOptions } from 'sequelize';
import { Batch } from '../../../db/models';
import { negativeLotsOfBatches } from '../../../db/queries/inventory';
import { inputOf, type AppCustom, type AppState } from '../../context';
import { validate } from '../../middleware/validate';
import { startBatch } from '../events/batch';
import { captureErrorBehaviourOf, setCaptureLimitHeaders, storeCapture, validDocument, validEvent, type CheckedDocument } from './capture';
import { answerEvents, getEvent, postEvent } from './events';
import { nextPageLink, seqOfToken } from './paging';
import { TOP_LEVEL_RESOURCES, listValues, valueEvents, valueResources } from './resources';
import { NO_SUCH_RESOURCE, QUERY_PARAMETER_EXCEPTION, captureJobBody, captureLocation, epcisProblem } from './presenter';
import { pageQuery, eventsQuery, perPageOf, type PageQuery } from './schema';
import { xmlAnswers } from './xml';

const EPCIS_VERSION = '2.0.0';
const CBV_VERSION = '2.0.0';

/** A capture job's columns: the stored request without its events (a document's worth, read only by the pipeline). */
const CAPTURE_JOB_ATTRIBUTES: FindAttributeOptions = { exclude: ['request', 'result'], include: [[literal(`request - 'Events'`), 'request']] };

const queryProblem = (errors: { instancePath: string; message?: string; params: Record<string, unknown>; keyword: string }[]) =>
  epcisProblem(
    400,
    QUERY_PARAMETER_EXCEPTION,
    'The query parameters are not valid.',
    errors.map((e) => {
      const name = e.instancePath.slice(1) || String(e.params.additionalProperty ?? e.params.missingProperty ?? '');
      return { pointer: `/${name}`, message: `${name} ${e.keyword === 'additionalProperties' ? 'is not a known query parameter' : (e.message ?? 'is invalid')}.` };
    }),
  );

/** GS1's EPCIS 2.0 REST binding under /epcis: capture, events and the top-level resources. */
export function epcisRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>({ prefix: '/epcis' });
  router.use(async (ctx, next) => {
    ctx.set('GS1-EPCIS-Version', EPCIS_VERSION);
    ctx.set('GS1-CBV-Version', CBV_VERSION);
    await next();
  });
  router.use(xmlAnswers());

  router.options('/capture', (ctx) => {
    setCaptureLimitHeaders(ctx);
    ctx.set('Allow', 'OPTIONS, POST, GET');
    ctx.set('GS1-EPCIS-Min', EPCIS_VERSION);
    ctx.set('GS1-EPCIS-Max', EPCIS_VERSION);
    ctx.set('GS1-CBV-Min', CBV_VERSION);
    ctx.set('GS1-CBV-Max', CBV_VERSION);
    ctx.set('GS1-Capture-Error-Behaviour', 'rollback, proceed');
    ctx.status = 204;
  });

  router.post(
    '/capture',
    async (ctx, next) => {
      setCaptureLimitHeaders(ctx);
      await next();
    },
    validDocument(),
    async (ctx) => {
      const behaviour = captureErrorBehaviourOf(ctx);
      const batch = await storeCapture(ctx, inputOf<CheckedDocument>(ctx), behaviour);
      await startBatch(ctx, batch, { statusUrl: captureLocation(batch.id) });
      ctx.status = 202;
      ctx.set('Location', captureLocation(batch.id));
      // The standard's 202 needs no body; ours names the job, as every answer of this service has a body.
      ctx.body = { captureID: batch.id, location: captureLocation(batch.id) };
    },
  );

  router.get('/capture', validate(pageQuery, 'query', queryProblem), async (ctx) => {
    const query = inputOf<PageQuery>(ctx);
    const perPage = perPageOf(query);
    const after = seqOfToken(query.nextPageToken);
    const rows = await Batch.findAll({
      attributes: CAPTURE_JOB_ATTRIBUTES,
      where: { accountId: ctx.state.account.id, mode: 'epcis', ...(after ? { seq: { [Op.gt]: after } } : {}) },
      order: [['seq', 'ASC']],
      limit: perPage + 1,
    });
    const page = rows.slice(0, perPage);
    if (rows.length > perPage) nextPageLink(ctx, page[page.length - 1].seq);
    const negative = await negativeLotsOfBatches(ctx.deps.sequelize, ctx.state.account.id, page.map((batch) => batch.id));
    ctx.body = page.map((batch) => captureJobBody(batch, negative.filter((lot) => lot.batch_id === batch.id)));
  });

  router.get('/capture/:captureID', async (ctx) => {
    const id = ctx.params.captureID;
    const batch = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
      ? await Batch.findOne({ attributes: CAPTURE_JOB_ATTRIBUTES, where: { id, accountId: ctx.state.account.id, mode: 'epcis' } })
      : null;
    if (!batch) throw epcisProblem(404, NO_SUCH_RESOURCE, `No capture job ${id} in this account.`);
    ctx.body = captureJobBody(batch, await negativeLotsOfBatches(ctx.deps.sequelize, ctx.state.account.id, [batch.id]));
  });

  router.post('/events', validEvent(), postEvent);
  router.get('/events', validate(eventsQuery, 'query', queryProblem), (ctx) => answerEvents(ctx));
  router.get('/events/:eventID', getEvent);

  for (const resource of TOP_LEVEL_RESOURCES) {
    router.get(`/${resource.name}`, validate(pageQuery, 'query', queryProblem), listValues(resource));
    router.get(`/${resource.name}/:${resource.param}`, valueResources(resource));
    router.get(`/${resource.name}/:${resource.param}/events`, validate(eventsQuery, 'query', queryProblem), valueEvents(resource));
  }
  return router;
}
