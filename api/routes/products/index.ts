import Router from '@koa/router';
import { findProduct, listProducts } from '../../../db/repositories/master-data';
import { productCreateIssues } from '../../../domain/master-data';
import { updateProducts } from '../../../usecases/master-data';
import type { AppCustom, AppState } from '../../context';
import { invalidRequest, masterDataDeps, refusedAs, storedAnswer, validateBatch } from '../master-data/batch-errors';
import { createdAnswer } from '../master-data/create';
import { masterDataReadRoutes } from '../master-data/read';
import { presentProduct } from './presenter';
import { createProductsSchema, updateProductsSchema } from '../../../domain/schemas/products';

/** Products (SPEC.md, POST /Integration/Products), with the update, list and read users expect next to it. */
export function productsRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();

  router.post('/Integration/Products', validateBatch(createProductsSchema), async (ctx) => {
    const { Products: records } = ctx.state.input.body;
    ctx.body = await createdAnswer(ctx, { kind: 'products', records }, productCreateIssues(records));
  });

  router.put('/Integration/Products', validateBatch(updateProductsSchema), async (ctx) => {
    const { Products: products } = ctx.state.input.body;
    // The create rules (ids once per request, known units) hold for updates too.
    const validations = productCreateIssues(products);
    if (validations.length) throw invalidRequest(validations);
    const updated = await updateProducts(masterDataDeps(ctx.deps), { account: ctx.state.account, products }).catch(
      refusedAs('product'),
    );
    ctx.body = storedAnswer('product', 'Updated', updated);
  });

  masterDataReadRoutes(router, '/Integration/Products', {
    list: listProducts,
    find: findProduct,
    present: presentProduct,
    unknown: { code: 'unknown-product', noun: 'Product' },
  });

  return router;
}
