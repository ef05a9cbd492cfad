import Router from '@koa/router';
import { PostgresHashChainLedger } from '../../../db/repositories/ledger';
import type { AppCustom, AppState } from '../../context';

/** `GET /Integration/Ledger/verify`: recomputes the caller's hash chain (DESIGN.md "Ledger"). */
export function ledgerRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();
  router.get('/Integration/Ledger/verify', async (ctx) => {
    ctx.body = await new PostgresHashChainLedger(ctx.deps.sequelize).verify(ctx.state.account.id);
  });
  return router;
}
