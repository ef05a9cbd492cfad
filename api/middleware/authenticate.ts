import type { Middleware } from 'koa';
import { authenticate as findAccount } from '../../db/repositories/accounts';
import type { AppCustom, AppState } from '../context';
import { problem, validationProblem } from '../errors';

/** SPEC.md, Authentication 6 and 7: missing key is a 400 validation problem, a wrong one a 401. */
export function authenticate(): Middleware<AppState, AppCustom> {
  return async (ctx, next) => {
    const presented = ctx.get('X-API-KEY').trim();
    if (!presented) throw validationProblem({ 'X-API-KEY': ['The apiKey field is required.'] });
    const caller = await findAccount(presented);
    if (!caller) throw problem(401, 'The API key is not valid.');
    ctx.state.account = caller.account;
    ctx.state.caller = caller;
    await next();
  };
}
