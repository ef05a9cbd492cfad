import Router from '@koa/router';
import { captureJobStatus, captureJobsAfter, findCaptureJob } from '../../../db/repositories/capture-jobs';
import { negativeLotsOfBatches } from '../../../db/queries/inventory';
import type { AppCustom, AppState } from '../../context';
import { problem } from '../../errors';
import { validate, textOf } from '../../middleware/validate';
import { readWhenFinished } from '../../batch-wait';
import { isFinished } from '../../../batches/outcome';
import { outcomeProblem } from '../events/batch';
import { setCaptureLimitHeaders, submitCheckedCapture, validDocument, validEvent } from './capture';
import { answerEvents, getEvent, postEvent, validEventRequest, validEventsQuery } from './events';
import { queriesRoutes } from './queries';
import { nextPageLink, seqOfToken } from './paging';
import { TOP_LEVEL_RESOURCES, listValues, valueEvents, valueResources } from './resources';
import { captureJobBody, captureLocation, queryProblem } from './presenter';
import { captureIdParams, pageQuery, perPageOf } from '../../../contract/epcis/schema';
import { xmlAnswers } from './xml';

const EPCIS_VERSION = '2.0.0';
const CBV_VERSION = '2.0.0';

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
      const { body, headers } = ctx.state.input;
      const behaviour = headers['GS1-Capture-Error-Behaviour'] ?? 'rollback';
      const { batch, outcome } = await submitCheckedCapture(ctx, body, behaviour, { wait: false });
      if (outcome.kind === 'notStarted') throw outcomeProblem(batch.id, outcome, captureLocation(batch.id));
      ctx.status = 202;
      ctx.set('Location', captureLocation(batch.id));
      // The standard's 202 needs no body; ours names the job, as every answer of this service has a body.
      ctx.body = { captureID: batch.id, location: captureLocation(batch.id) };
    },
  );

  router.get('/capture', validate({ query: pageQuery }, queryProblem), async (ctx) => {
    const { query } = ctx.state.input;
    const perPage = perPageOf(query);
    const after = seqOfToken(query.nextPageToken);
    const rows = await captureJobsAfter(ctx.state.account.id, after, perPage + 1);
    const page = rows.slice(0, perPage);
    if (rows.length > perPage) nextPageLink(ctx, page[page.length - 1].seq);
    // A job still running has no final balances yet (the recalculation comes after its events are stored):
    // its lots are read once it has finished, and a client polling it costs PostgreSQL no timeline reads.
    const negative = await negativeLotsOfBatches(
      ctx.deps.sequelize,
      ctx.state.account.id,
      page.filter(isFinished).map((batch) => batch.id),
    );
    ctx.body = page.map((batch) =>
      captureJobBody(
        batch,
        negative.filter((lot) => lot.batch_id === batch.id),
      ),
    );
  });

  const noCaptureJob = (id: string) =>
    problem('epcis-unknown-capture-job', { detail: `No capture job ${id} in this account.` });
  router.get(
    '/capture/:captureID',
    validate({ params: captureIdParams }, (_errors, params) => noCaptureJob(textOf(params, 'captureID'))),
    async (ctx) => {
      const id = ctx.state.input.params.captureID;
      const accountId = ctx.state.account.id;
      // Waiting on a job still running reads its status alone first: its stored request is read once, after.
      const batch = await readWhenFinished(
        ctx,
        id,
        () => findCaptureJob(accountId, id),
        () => captureJobStatus(accountId, id),
      );
      if (!batch) throw noCaptureJob(id);
      ctx.body = captureJobBody(
        batch,
        isFinished(batch) ? await negativeLotsOfBatches(ctx.deps.sequelize, ctx.state.account.id, [batch.id]) : [],
      );
    },
  );

  router.post('/events', validEvent(), postEvent);
  router.get('/events', validEventsQuery(), (ctx) => answerEvents(ctx));
  router.get('/events/:eventID', validEventRequest(), getEvent);

  queriesRoutes(router);

  for (const resource of TOP_LEVEL_RESOURCES) {
    router.get(`/${resource.name}`, validate({ query: pageQuery }, queryProblem), listValues(resource));
    router.get(`/${resource.name}/:${resource.param}`, valueResources(resource));
    router.get(`/${resource.name}/:${resource.param}/events`, validEventsQuery(), valueEvents(resource));
  }
  return router;
}
