/**
 * A GS1 Digital Link resolver at the service root for the account's own identifiers (GTIN with lot or
 * serial, GLN, PGLN): where GDST's capability tools start, to find the EPCIS query interface.
 */
import Router from '@koa/router';
import { holdsLotOrSerial, locationByGln, partyByPgln, productByGtin } from '../../../db/queries/resolver';
import { checkDigit } from '../../../domain/epcis/identifiers';
import {
  LINK_TYPES,
  linksOf,
  linksetOf,
  organizationJsonLd,
  placeJsonLd,
  productJsonLd,
  type LinkType,
  type ResolvedKey,
} from '../../../domain/epcis/resolver';
import type { APIContext, AppCustom, AppState } from '../../context';
import { problem } from '../../errors';
import { validate, type InputOf } from '../../middleware/validate';
import { resolverQuery } from './schema';

const LINKSET_JSON = 'application/linkset+json';

/** A GS1 key with a valid check digit, else a 400 naming it. */
function key(value: string, lengths: number[], name: string): string {
  if (!/^\d+$/.test(value) || !lengths.includes(value.length) || checkDigit(value.slice(0, -1)) !== value.slice(-1)) {
    throw problem('invalid-gs1-key', {
      detail: `${value.slice(0, 40)} is not a ${name} (${lengths.join(', ')} digits with a valid GS1 check digit).`,
    });
  }
  return value;
}

const resolverRequest = { query: resolverQuery };
type ResolverContext = APIContext<InputOf<typeof resolverRequest>>;

/** The link type asked for, in the standard's spelling; `all` or absent is every link (the linkset). */
function linkTypeOf(ctx: ResolverContext): LinkType | undefined {
  const asked = ctx.state.input.query.linkType;
  if (asked === undefined || asked.toLowerCase() === 'all') return undefined;
  const linkType = LINK_TYPES.find((type) => type.toLowerCase() === asked.toLowerCase());
  if (!linkType)
    throw problem('unknown-link-type', {
      detail: `This resolver has no link of type ${asked.slice(0, 100)} (it has ${LINK_TYPES.join(' and ')}).`,
    });
  return linkType;
}

async function resolve(ctx: ResolverContext, resolved: ResolvedKey, masterData: () => object): Promise<void> {
  const linkType = linkTypeOf(ctx);
  const base = `${ctx.protocol}://${ctx.host}`;
  if (linkType === 'gs1:masterData') {
    ctx.type = 'application/ld+json';
    ctx.body = masterData();
  } else if (linkType) {
    ctx.body = linksOf(resolved, base, linkType);
  } else {
    ctx.type = LINKSET_JSON;
    ctx.body = linksetOf(resolved, base);
  }
  ctx.set('Link', `<${base}/epcis>; rel="https://gs1.org/voc/epcis"`);
}

async function resolveGtin(ctx: ResolverContext, qualifier: { lot?: string; serial?: string } = {}): Promise<void> {
  const gtin = key(ctx.params.gtin, [8, 12, 13, 14], 'GTIN').padStart(14, '0');
  const { sequelize } = ctx.deps;
  const product = await productByGtin(sequelize, ctx.state.account.id, gtin);
  if (!product) throw problem('unknown-product', { detail: `No product with GTIN ${gtin} in this account.` });
  const lotSerial = qualifier.lot ?? qualifier.serial;
  if (lotSerial !== undefined && !(await holdsLotOrSerial(sequelize, ctx.state.account.id, gtin, lotSerial))) {
    throw problem('unknown-lot-or-serial', {
      detail: `No event of this account names ${qualifier.lot !== undefined ? 'lot' : 'serial'} ${lotSerial.slice(0, 100)} of GTIN ${gtin}.`,
    });
  }
  const resolved: ResolvedKey = { ai: '01', gtin, ...qualifier };
  await resolve(ctx, resolved, () =>
    productJsonLd(resolved, {
      gtin,
      name: product.name,
      unit: product.unit_of_measure,
      masterData: product.master_data ?? [],
    }),
  );
}

export function resolverRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();
  const query = validate(resolverRequest);
  router.get('/01/:gtin', query, (ctx) => resolveGtin(ctx));
  router.get('/01/:gtin/10/:lot', query, (ctx) => resolveGtin(ctx, { lot: ctx.params.lot }));
  router.get('/01/:gtin/21/:serial', query, (ctx) => resolveGtin(ctx, { serial: ctx.params.serial }));
  router.get('/414/:gln', query, async (ctx) => {
    const gln = key(ctx.params.gln, [13], 'GLN');
    const location = await locationByGln(ctx.deps.sequelize, ctx.state.account.id, gln);
    if (!location) throw problem('unknown-location', { detail: `No location with GLN ${gln} in this account.` });
    await resolve(ctx, { ai: '414', gln }, () =>
      placeJsonLd({
        gln,
        name: location.name,
        partyName: location.party_name,
        address: location.address,
        vessel: location.vessel,
        captainsName: location.captains_name,
      }),
    );
  });
  router.get('/417/:pgln', query, async (ctx) => {
    const pgln = key(ctx.params.pgln, [13], 'PGLN');
    const party = await partyByPgln(ctx.deps.sequelize, ctx.state.account.id, pgln);
    if (!party)
      throw problem('unknown-trade-partner', { detail: `No trade partner with PGLN ${pgln} in this account.` });
    await resolve(ctx, { ai: '417', pgln }, () => organizationJsonLd(party));
  });
  return router;
}
