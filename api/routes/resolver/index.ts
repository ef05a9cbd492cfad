/**
 * A GS1 Digital Link resolver at the service root for the account's own identifiers (GTIN with lot or
 * serial, SSCC, GLN, PGLN, and GDST's URNs in their place): where GDST's capability tools start, to find
 * the EPCIS query interface and the master data; and the master data its links name, under /masterdata.
 */
import Router from '@koa/router';
import {
  linkTypesOf,
  linksOf,
  linksetOf,
  resolverKeyOf,
  type KeyAi,
  type KeyQualifier,
  type LinkType,
  type ResolvedKey,
} from '../../../domain/epcis/resolver';
import type { APIContext, AppCustom, AppState } from '../../context';
import { problem } from '../../errors';
import { heldUnder, type Held } from '../../../usecases/resolve-identifier';
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

/** The master data held under the key (undefined for a logistic unit), or the 404 that names what the account lacks. */
function heldOrThrow(held: Held): object | undefined {
  if (held.kind === 'unknown') throw problem(held.code, { detail: held.detail });
  return held.masterData;
}

async function resolve(ctx: ResolverContext, ai: KeyAi, value: string, qualifier: KeyQualifier = {}): Promise<void> {
  const parsed = resolverKeyOf(ai, value, qualifier);
  if ('problem' in parsed) throw problem('invalid-gs1-key', { detail: parsed.problem });
  const { key } = parsed;
  const linkType = linkTypeOf(ctx, key);
  const masterData = heldOrThrow(await heldUnder(ctx.deps.sequelize, ctx.state.account.id, key));
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
  const masterData = heldOrThrow(await heldUnder(ctx.deps.sequelize, ctx.state.account.id, parsed.key));
  ctx.type = JSON_LD;
  ctx.body = masterData;
}

/** The Digital Link paths resolved: the key's AI and parameter, and a qualifier's AI and parameter. */
const KEY_PATHS: [KeyAi, string, [string, keyof KeyQualifier]?][] = [
  ['01', 'gtin'],
  ['01', 'gtin', ['10', 'lot']],
  ['01', 'gtin', ['21', 'serial']],
  ['00', 'sscc'],
  ['414', 'gln'],
  ['414', 'gln', ['254', 'extension']],
  ['417', 'pgln'],
];

export function resolverRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();
  const query = validate(resolverRequest);
  const masterData = validate(masterDataRequest);
  for (const [ai, name, [qualifierAi, qualifier] = []] of KEY_PATHS) {
    const path = `/${ai}/:${name}${qualifier ? `/${qualifierAi}/:${qualifier}` : ''}`;
    const qualifierOf = (params: Record<string, string>) => (qualifier ? { [qualifier]: params[qualifier] } : {});
    router.get(path, query, (ctx) => resolve(ctx, ai, ctx.params[name], qualifierOf(ctx.params)));
    if (ai !== '00')
      router.get(`/masterdata${path}`, masterData, (ctx) =>
        answerMasterData(ctx, ai, ctx.params[name], qualifierOf(ctx.params)),
      );
  }
  return router;
}
