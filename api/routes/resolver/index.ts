/**
 * A GS1 Digital Link resolver at the service root for the account's own identifiers (GTIN with lot or
 * serial, SSCC, GLN, PGLN, and GDST's URNs in their place): where GDST's capability tools start, to find
 * the EPCIS query interface and the master data; and the master data its links name, under /masterdata.
 */
import Router from '@koa/router';
import { eventsName, eventsNameParty, locationByKey, partyByKey, productByKey } from '../../../db/queries/resolver';
import {
  eventMatchOf,
  keyName,
  linkTypesOf,
  linksOf,
  linksetOf,
  organizationJsonLd,
  placeJsonLd,
  productJsonLd,
  resolverKeyOf,
  type KeyAi,
  type KeyQualifier,
  type LinkType,
  type ResolvedKey,
} from '../../../domain/epcis/resolver';
import type { APIContext, AppCustom, AppState } from '../../context';
import { problem } from '../../errors';
import { validate, type InputOf } from '../../middleware/validate';
import { masterDataQuery, resolverQuery } from '../../../contract/resolver/schema';

const LINKSET_JSON = 'application/linkset+json';
const JSON_LD = 'application/ld+json';

const resolverRequest = { query: resolverQuery };
type ResolverContext = APIContext<InputOf<typeof resolverRequest>>;
const masterDataRequest = { query: masterDataQuery };
type MasterDataContext = APIContext<InputOf<typeof masterDataRequest>>;

/** The link type asked for, in the standard's spelling; `all` or absent is every link (the linkset). */
function linkTypeOf(ctx: ResolverContext, key: ResolvedKey): LinkType | undefined {
  const asked = ctx.state.input.query.linkType;
  if (asked === undefined || asked.toLowerCase() === 'all') return undefined;
  const linkTypes = linkTypesOf(key);
  const linkType = linkTypes.find((type) => type.toLowerCase() === asked.toLowerCase());
  if (!linkType)
    throw problem('unknown-link-type', {
      detail: `This resolver has no link of type ${asked.slice(0, 100)} for this identifier (it has ${linkTypes.join(' and ')}).`,
    });
  return linkType;
}

/**
 * What the account holds under the key, as its master data (JSON-LD; undefined for a logistic unit), or
 * a 404 naming what it lacks: a product, location or party it has, or events naming the lot, serial, SSCC or party.
 */
async function heldMasterData(ctx: APIContext, key: ResolvedKey): Promise<object | undefined> {
  const { sequelize } = ctx.deps;
  const accountId = ctx.state.account.id;
  const match = eventMatchOf(key);
  switch (key.ai) {
    case '01': {
      const product = await productByKey(sequelize, accountId, key.gs1 ? { gtin: key.id } : { urn: key.id });
      // A GDST lot may be named by events alone; a GTIN is a product of the account first.
      if (!product && (key.gs1 || !match))
        throw problem('unknown-product', { detail: `No product with ${keyName(key)} in this account.` });
      if (match && !(await eventsName(sequelize, accountId, match.kind, match.values)))
        throw problem('unknown-lot-or-serial', {
          detail: `No event of this account names ${key.lot !== undefined ? 'lot' : 'serial'} ${(key.lot ?? key.serial)!.slice(0, 100)} of ${keyName(key)}.`,
        });
      return productJsonLd(
        key,
        product && { name: product.name, unit: product.unit_of_measure, masterData: product.master_data ?? [] },
      );
    }
    case '00':
      if (!(await eventsName(sequelize, accountId, match!.kind, match!.values)))
        throw problem('unknown-lot-or-serial', { detail: `No event of this account names ${keyName(key)}.` });
      return undefined;
    case '414': {
      const location = await locationByKey(
        sequelize,
        accountId,
        key.gs1 ? { gln: key.id, extension: key.extension } : { urn: key.id },
      );
      if (!location) throw problem('unknown-location', { detail: `No location with ${keyName(key)} in this account.` });
      return placeJsonLd(key, {
        name: location.name,
        partyName: location.party_name,
        address: location.address,
        vessel: location.vessel,
        captainsName: location.captains_name,
      });
    }
    case '417': {
      const party = await partyByKey(sequelize, accountId, key.gs1 ? { pgln: key.id } : { urn: key.id });
      if (!party && (key.gs1 || !(await eventsNameParty(sequelize, accountId, key.id))))
        throw problem('unknown-trade-partner', { detail: `No trade partner with ${keyName(key)} in this account.` });
      return organizationJsonLd(key, party);
    }
  }
}

async function resolve(ctx: ResolverContext, ai: KeyAi, value: string, qualifier: KeyQualifier = {}): Promise<void> {
  const parsed = resolverKeyOf(ai, value, qualifier);
  if ('problem' in parsed) throw problem('invalid-gs1-key', { detail: parsed.problem });
  const { key } = parsed;
  const linkType = linkTypeOf(ctx, key);
  const masterData = await heldMasterData(ctx, key);
  const base = `${ctx.protocol}://${ctx.host}`;
  if (linkType === 'gs1:masterData') ctx.vary('Accept');
  // GDST's client asks with no Accept header for the links, then fetches the master data link; the
  // master data itself answers here only to a request that prefers JSON-LD.
  if (linkType === 'gs1:masterData' && ctx.accepts('application/json', JSON_LD) === JSON_LD) {
    ctx.type = JSON_LD;
    ctx.body = masterData;
  } else if (linkType) {
    ctx.body = linksOf(key, base, linkType);
  } else {
    ctx.type = LINKSET_JSON;
    ctx.body = linksetOf(key, base);
  }
  ctx.set('Link', `<${base}/epcis>; rel="https://gs1.org/voc/epcis"`);
}

/** The master data a gs1:masterData link names, as JSON-LD whatever the request accepts. */
async function answerMasterData(
  ctx: MasterDataContext,
  ai: Exclude<KeyAi, '00'>,
  value: string,
  qualifier: KeyQualifier = {},
): Promise<void> {
  const parsed = resolverKeyOf(ai, value, qualifier);
  if ('problem' in parsed) throw problem('invalid-gs1-key', { detail: parsed.problem });
  const masterData = await heldMasterData(ctx, parsed.key);
  ctx.type = JSON_LD;
  ctx.body = masterData;
}

export function resolverRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();
  const query = validate(resolverRequest);
  router.get('/01/:gtin', query, (ctx) => resolve(ctx, '01', ctx.params.gtin));
  router.get('/01/:gtin/10/:lot', query, (ctx) => resolve(ctx, '01', ctx.params.gtin, { lot: ctx.params.lot }));
  router.get('/01/:gtin/21/:serial', query, (ctx) =>
    resolve(ctx, '01', ctx.params.gtin, { serial: ctx.params.serial }),
  );
  router.get('/00/:sscc', query, (ctx) => resolve(ctx, '00', ctx.params.sscc));
  router.get('/414/:gln', query, (ctx) => resolve(ctx, '414', ctx.params.gln));
  router.get('/414/:gln/254/:extension', query, (ctx) =>
    resolve(ctx, '414', ctx.params.gln, { extension: ctx.params.extension }),
  );
  router.get('/417/:pgln', query, (ctx) => resolve(ctx, '417', ctx.params.pgln));

  const masterData = validate(masterDataRequest);
  router.get('/masterdata/01/:gtin', masterData, (ctx) => answerMasterData(ctx, '01', ctx.params.gtin));
  router.get('/masterdata/01/:gtin/10/:lot', masterData, (ctx) =>
    answerMasterData(ctx, '01', ctx.params.gtin, { lot: ctx.params.lot }),
  );
  router.get('/masterdata/01/:gtin/21/:serial', masterData, (ctx) =>
    answerMasterData(ctx, '01', ctx.params.gtin, { serial: ctx.params.serial }),
  );
  router.get('/masterdata/414/:gln', masterData, (ctx) => answerMasterData(ctx, '414', ctx.params.gln));
  router.get('/masterdata/414/:gln/254/:extension', masterData, (ctx) =>
    answerMasterData(ctx, '414', ctx.params.gln, { extension: ctx.params.extension }),
  );
  router.get('/masterdata/417/:pgln', masterData, (ctx) => answerMasterData(ctx, '417', ctx.params.pgln));
  return router;
}
