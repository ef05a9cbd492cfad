/**
 * The standard's top-level resources (their paths: contract/epcis/schema.ts) answered from the account's
 * events: the values each takes, each value's sub-resources, and its events.
 */
import { EVENT_TYPES as EPCIS_EVENT_TYPES } from '../../../domain/epcis/xml/from-xml';
import { distinctEpcisValues, distinctEpcs, type EpcisEventFilter } from '../../../db/queries/epcis-events';
import type { APIContext } from '../../context';
import { problem } from '../../errors';
import type { InputOf } from '../../middleware/validate';
import { GS1_CONTEXT } from '../../../db/queries/epcis-documents';
import { answerEvents, type EventsRequest } from './events';
import { createHash } from 'node:crypto';
import { invalidPageToken, nextPageLink } from './paging';
import {
  TOP_LEVEL_RESOURCE_PATHS,
  perPageOf,
  type pageQuery,
  type TopLevelResourcePath,
} from '../../../contract/epcis/schema';

interface Lookup {
  values: (ctx: APIContext) => Promise<string[]>;
  /** The filter of /epcis/{name}/{value}/events. */
  filter: (value: string) => Partial<EpcisEventFilter>;
}
export type TopLevelResource = TopLevelResourcePath & Lookup;

/** The values one event field takes in the account's events; a value's events: those with it (EQ_<field>). */
const byField = (param: 'bizStep' | 'bizLocation' | 'readPoint' | 'disposition'): Lookup => ({
  values: (ctx) => distinctEpcisValues(ctx.deps.sequelize, ctx.state.account.id, param),
  filter: (v) => ({ [`EQ_${param}`]: [v] }),
});

const LOOKUPS: Record<TopLevelResourcePath['name'], Lookup> = {
  eventTypes: { values: async () => [...EPCIS_EVENT_TYPES], filter: (v) => ({ eventType: [v] }) },
  bizSteps: byField('bizStep'),
  bizLocations: byField('bizLocation'),
  readPoints: byField('readPoint'),
  dispositions: byField('disposition'),
  epcs: {
    values: (ctx) => distinctEpcs(ctx.deps.sequelize, ctx.state.account.id),
    filter: (v) => ({ match: { anyEPC: [v] } }),
  },
};

export const TOP_LEVEL_RESOURCES: TopLevelResource[] = TOP_LEVEL_RESOURCE_PATHS.map((path) => ({
  ...path,
  ...LOOKUPS[path.name],
}));

const collection = (member: string[]) => ({ '@context': [GS1_CONTEXT], type: 'Collection', member });

/** A value's page token: short, whatever the value's length (an EPC may run to thousands of characters). */
const tokenOf = (value: string) => createHash('sha256').update(value).digest('base64url').slice(0, 22);

/**
 * GET /epcis/{name}: the values the account's events name, perPage at a time. The page token names the
 * last value listed, so one recorded between two pages repeats or hides none. Values seldom go (a
 * location's GLN changed): then the token names none, is refused, and the listing starts again.
 */
export const listValues =
  (resource: TopLevelResource) => async (ctx: APIContext<InputOf<{ query: typeof pageQuery }>>) => {
    const { query } = ctx.state.input;
    const values = await resource.values(ctx);
    let start = 0;
    if (query.nextPageToken !== undefined) {
      const last = Buffer.from(query.nextPageToken, 'base64url').toString();
      start = values.findIndex((value) => tokenOf(value) === last) + 1;
      if (start === 0) throw invalidPageToken();
    }
    const end = start + perPageOf(query);
    if (end < values.length) nextPageLink(ctx, tokenOf(values[end - 1]));
    ctx.body = collection(values.slice(start, end));
  };

/** GET /epcis/{name}/{value}: its sub-resources (only `events`), when the account's events name it. */
export const valueResources = (resource: TopLevelResource) => async (ctx: APIContext) => {
  const value = ctx.params[resource.param];
  const known =
    resource.name === 'eventTypes'
      ? EPCIS_EVENT_TYPES.includes(value as never)
      : (await resource.values(ctx)).includes(value);
  if (!known)
    throw problem('epcis-unknown-resource', {
      detail: `No ${resource.what.replace(/s$/, '')} ${value} among this account's events.`,
    });
  ctx.body = collection(['events']);
};

/** GET /epcis/{name}/{value}/events: the events query with the value as its filter. */
export const valueEvents = (resource: TopLevelResource) => (ctx: APIContext<EventsRequest>) =>
  answerEvents(ctx, resource.filter(ctx.params[resource.param]));
