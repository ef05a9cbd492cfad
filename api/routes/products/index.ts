import Router from '@koa/router';
import { findProduct, listProducts } from '../../../db/repositories/master-data';
import { productCreateIssues } from '../../../domain/master-data';
import { updateProducts } from '../../../usecases/master-data';
import type { AppCustom, AppState } from '../../context';
import { problem } from '../../errors';
import { invalidRequest, masterDataDeps, refusedAs, storedAnswer, validateBatch } from '../master-data/batch-errors';
import { createdAnswer } from '../master-data/create';
import { pageBody, pageOf, validatePage } from '../../paging';
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

  router.get('/Integration/Products', validatePage(), async (ctx) => {
    const page = pageOf(ctx.state.input.query);
    const { rows, total } = await listProducts(ctx.state.account.id, page.offset, page.pageSize);
    ctx.body = pageBody(page, total, rows.map(presentProduct));
  });

  router.get('/Integration/Products/:id', async (ctx) => {
    const product = await findProduct(ctx.state.account.id, ctx.params.id);
    if (!product) throw problem('unknown-product', { detail: `Product ${ctx.params.id} was not found.` });
    ctx.body = presentProduct(product);
  });

  return router;
}
