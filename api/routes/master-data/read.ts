import type Router from '@koa/router';
import type { ErrorCode } from '../../../contract/error-catalogue';
import type { Page } from '../../../db/repositories/master-data';
import type { AppCustom, AppState } from '../../context';
import { problem } from '../../errors';
import { pageBody, pageOf, validatePage } from '../../paging';

/** How a kind of master data is read: a page of the account's records, one by its id, and how each is shown. */
export interface MasterDataReads<Row> {
  list: (accountId: string, offset: number, limit: number) => Promise<Page<Row>>;
  find: (accountId: string, id: string) => Promise<Row | null>;
  present: (row: Row) => unknown;
  /** The 404 of an id the account has no record of, and the record's name in its detail. */
  unknown: { code: ErrorCode; noun: string };
}

/** GET `path` (a page) and GET `path`/:id (one record, or the 404): the same for products and locations. */
export function masterDataReadRoutes<Row>(
  router: Router<AppState, AppCustom>,
  path: string,
  reads: MasterDataReads<Row>,
): void {
  router.get(path, validatePage(), async (ctx) => {
    const page = pageOf(ctx.state.input.query);
    const { rows, total } = await reads.list(ctx.state.account.id, page.offset, page.pageSize);
    ctx.body = pageBody(page, total, rows.map(reads.present));
  });

  router.get(`${path}/:id`, async (ctx) => {
    const found = await reads.find(ctx.state.account.id, ctx.params.id);
    if (!found) throw problem(reads.unknown.code, { detail: `${reads.unknown.noun} ${ctx.params.id} was not found.` });
    ctx.body = reads.present(found);
  });
}
