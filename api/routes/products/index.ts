import Router from '@koa/router';
import { createProduct, findProduct, listProducts, MasterDataConflict } from '../../../db/repositories/master-data';
import { productCreateIssues, productUpdateAttributes, type MasterDataIssue } from '../../../domain/master-data';
import type { AppCustom, AppState } from '../../context';
import { problem } from '../../errors';
import { conflictingRequest, invalidRequest, rejection, validateBatch } from '../master-data/batch-errors';
import { pageBody, pageOf, validatePage } from '../../paging';
import { presentProduct } from './presenter';
import { createProductsSchema, updateProductsSchema } from './schema';

/** Products (SPEC.md, POST /Integration/Products), with the update, list and read users expect next to it. */
export function productsRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();

  router.post('/Integration/Products', validateBatch(createProductsSchema), async (ctx) => {
    const { Products: products } = ctx.state.input.body;
    const validations = productCreateIssues(products);
    if (validations.length) throw invalidRequest(validations);
    const { account } = ctx.state;
    const created = await ctx.deps.sequelize.transaction(async (transaction) => {
      const errors: MasterDataIssue[] = [];
      const ids: string[] = [];
      for (const [index, payload] of products.entries()) {
        try {
          ids.push(
            (await createProduct(account, payload, ctx.deps.config.urnDomain, transaction, `Products[${index}]`)).id,
          );
        } catch (error) {
          if (!(error instanceof MasterDataConflict)) throw error;
          errors.push({ index, id: payload.Id, field: error.field, message: error.message });
        }
      }
      // Thrown inside the transaction so that the products created so far roll back.
      if (errors.length) throw conflictingRequest(errors);
      return ids;
    });
    ctx.body = {
      message: `${created.length} product(s) created.`,
      result: created.map((id) => ({ id, status: 'Created' })),
      errors: [],
      validations: [],
    };
  });

  router.put('/Integration/Products', validateBatch(updateProductsSchema), async (ctx) => {
    const { Products: products } = ctx.state.input.body;
    // The create rules (ids once per request, known units) hold for updates too.
    const validations = productCreateIssues(products);
    if (validations.length) throw invalidRequest(validations);
    const { account } = ctx.state;
    const updated = await ctx.deps.sequelize.transaction(async (transaction) => {
      const errors: MasterDataIssue[] = [];
      const ids: string[] = [];
      for (const [index, payload] of products.entries()) {
        const product = await findProduct(account.id, payload.Id, transaction);
        if (!product) {
          errors.push({
            index,
            id: payload.Id,
            field: `Products[${index}].Id`,
            message: `Product ${payload.Id} was not found.`,
          });
          continue;
        }
        await product.update(productUpdateAttributes(payload.Details), { transaction });
        ids.push(product.id);
      }
      if (errors.length)
        throw rejection(404, `${errors.length} product(s) were not found; nothing was changed.`, { errors });
      return ids;
    });
    ctx.body = {
      message: `${updated.length} product(s) updated.`,
      result: updated.map((id) => ({ id, status: 'Updated' })),
      errors: [],
      validations: [],
    };
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
