import Router from '@koa/router';
import { eventDetails } from '../../../db/queries/event-details';
import { page, paging } from '../../../domain/query-params';
import { utcWithOffset } from '../../../domain/time';
import { inputOf, type AppCustom, type AppState } from '../../context';
import { validationProblem } from '../../errors';
import { problemFromErrors, validate } from '../../middleware/validate';
import { eventDetailsQuery, type EventDetailsQuery } from './schema';

/** GET /epcis/Events/details: the events of a lot the caller may see, newest first by default. */
export function eventDetailsRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();

  router.get(
    '/epcis/Events/details',
    async (ctx, next) => {
      // SPEC.md marks `accept` required on this endpoint.
      if (!ctx.get('accept')) throw validationProblem({ accept: ['The accept header is required.'] });
      await next();
    },
    validate(eventDetailsQuery, 'query', (errors) => {
      const sort = errors.find((e) => e.instancePath === '/SortBy');
      return sort ? validationProblem({ SortBy: [`SortBy must be one of: ${eventDetailsQuery.properties.SortBy.enum.join(', ')}.`] }) : problemFromErrors(errors);
    }),
    async (ctx) => {
      const query = inputOf<EventDetailsQuery>(ctx);
      const pages = paging(query.PageNumber, query.PageSize);
      if (!pages) throw validationProblem({ PageNumber: ['PageNumber and PageSize must be greater than 0.'] });
      const { rows, total } = await eventDetails(ctx.deps.sequelize, {
        accountId: ctx.state.account.id,
        lotSerial: query.LotSerial,
        purchaseOrder: query.PurchaseOrder,
        sortBy: query.SortBy ?? '-eventDate',
        paging: pages,
      });
      const results = rows.map((row) => ({
        id: row.line_id,
        eventId: row.event_id,
        eventType: row.type,
        productName: row.product_name,
        lotSerial: row.lot_serial,
        quantity: Number(row.quantity),
        locationName: row.location_name,
        companyName: row.company_name,
        eventDate: utcWithOffset(row.event_time),
      }));
      ctx.body = page(results, total, pages);
    },
  );

  return router;
}
