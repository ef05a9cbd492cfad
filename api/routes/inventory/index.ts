import Router from '@koa/router';
import { inventoryOf } from '../../../usecases/inventory';
import { repeated, RepeatedParamError } from '../../../domain/query-params';
import { type AppCustom, type AppState } from '../../context';
import { queryTime, validationProblem } from '../../errors';
import { validate } from '../../middleware/validate';
import { presentInventory } from './presenter';
import { inventoryQuery } from '../../../contract/inventory/schema';

/** GET /Integration/Inventory: the reconstructed timeline, per product, lot and location. */
export function inventoryRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();

  router.get('/Integration/Inventory', validate({ query: inventoryQuery }), async (ctx) => {
    const { query } = ctx.state.input;
    let productValues: string[];
    let locationValues: string[];
    try {
      productValues = repeated('ProductIds', query.ProductIds);
      locationValues = repeated('LocationIds', query.LocationIds);
    } catch (error) {
      if (error instanceof RepeatedParamError) throw validationProblem({ [error.param]: [error.message] });
      throw error;
    }
    if (!productValues.length && !locationValues.length) {
      throw validationProblem({ ProductIds: ['At least one of ProductIds or LocationIds is required.'] });
    }

    const asOf = queryTime('AsOf', query.AsOf);
    const rows = await inventoryOf(ctx.deps.sequelize, {
      accountId: ctx.state.account.id,
      products: productValues,
      locations: locationValues,
      asOf,
    });
    const body = presentInventory(rows);

    if (ctx.accepts('application/json', 'text/plain') === 'text/plain') {
      ctx.type = 'text/plain';
      ctx.body = JSON.stringify(body);
    } else {
      ctx.body = body;
    }
  });

  return router;
}
