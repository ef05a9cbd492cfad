import Router from '@koa/router';
import { eventDetails } from '../../../db/queries/event-details';
import { utcWithOffset } from '../../../domain/time';
import { type AppCustom, type AppState } from '../../context';
import { rawError, validationProblem } from '../../errors';
import { problemFromErrors, validate } from '../../middleware/validate';
import { pageBody, pageOf } from '../../paging';
import { PAGE_QUERY_ERROR } from '../../../contract/paging';
import { eventDetailsHeaders, eventDetailsQuery } from '../../../contract/event-details/schema';

/** GET /epcis/Events/details: the events of a lot the caller may see, newest first by default. */
export function eventDetailsRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();

  router.get(
    '/epcis/Events/details',
    validate({ headers: eventDetailsHeaders, query: eventDetailsQuery }, (errors, _input, source) => {
      if (source === 'headers') return validationProblem({ accept: ['The accept header is required.'] });
      const on = (param: string) => errors.some((e) => e.instancePath === `/${param}`);
      if (on('SortBy'))
        return validationProblem({
          SortBy: [`SortBy must be one of: ${eventDetailsQuery.properties.SortBy.enum.join(', ')}.`],
        });
      if (on('PageNumber') || on('PageSize')) return rawError(400, PAGE_QUERY_ERROR);
      return problemFromErrors(errors);
    }),
    async (ctx) => {
      const { query } = ctx.state.input;
      const page = pageOf(query);
      const { rows, total } = await eventDetails(ctx.deps.sequelize, {
        accountId: ctx.state.account.id,
        lotSerial: query.LotSerial,
        purchaseOrder: query.PurchaseOrder,
        sortBy: query.SortBy ?? '-eventDate',
        page,
      });
      const results = rows.map((row) => ({
        id: row.line_id,
        eventId: row.event_id,
        externalEventId: row.external_event_id,
        eventType: row.type,
        productName: row.product_name,
        externalProductId: row.external_product_id,
        lotSerial: row.lot_serial,
        quantity: Number(row.quantity),
        locationName: row.location_name,
        externalLocationId: row.external_location_id,
        companyName: row.company_name,
        eventDate: utcWithOffset(row.event_time),
      }));
      ctx.body = pageBody(page, total, results);
    },
  );

  return router;
}
