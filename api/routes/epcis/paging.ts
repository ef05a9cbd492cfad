import type { APIContext } from '../../context';
import { problem } from '../../errors';
import { perPageOf, type PageQuery } from '../../../contract/epcis/schema';
import type { ListPlace } from '../../../db/repositories/epcis-queries';
import type { EventOrder } from '../../../db/queries/epcis-events';

/** The Link to the next page: its token is an opaque cursor (where the last row listed is). */
export function nextPageLink(ctx: APIContext, cursor: string | undefined): void {
  if (cursor === undefined) return;
  const params = new URLSearchParams(ctx.querystring);
  params.set('nextPageToken', Buffer.from(cursor).toString('base64url'));
  ctx.set('Link', `<${ctx.path}?${params.toString()}>; rel="next"`);
}

export const invalidPageToken = () =>
  problem('epcis-invalid-page-token', {
    issues: [{ pointer: '/nextPageToken', message: 'nextPageToken is not valid.' }],
  });

export function seqOfToken(token: string): string;
export function seqOfToken(token: string | undefined): string | undefined;
export function seqOfToken(token: string | undefined): string | undefined {
  if (token === undefined) return undefined;
  const seq = Buffer.from(token, 'base64url').toString();
  if (!/^\d{1,18}$/.test(seq)) throw invalidPageToken();
  return seq;
}

/** A token's time in microseconds since 1970, if PostgreSQL's timestamptz holds it (4713 BC to 294276 AD). */
function tokenMicros(text: string): string {
  const micros = BigInt(text);
  if (micros < -200_000_000_000_000_000n || micros > 9_000_000_000_000_000_000n) throw invalidPageToken();
  return text;
}

/** Where an ordered page of events ended: the last event's place in that order, and how many events the pages so far held. */
export interface EventCursor {
  seq: string;
  at: string;
  served: number;
}

/** An ordered page's token text: the order it was given in, and where it ended. */
export const orderedEventsToken = (order: EventOrder, { seq, at, served }: EventCursor): string =>
  `${order.by}~${order.direction}~${seq}~${at}~${served}`;

/** An ordered events page's token: the cursor orderedEventsToken wrote, for that same order. */
export function eventCursorOfToken(token: string, order: EventOrder): EventCursor {
  const cursor = /^(\w+)~(\w+)~(\d{1,18})~(-?\d{1,19})~(\d{1,9})$/.exec(Buffer.from(token, 'base64url').toString());
  if (!cursor || cursor[1] !== order.by || cursor[2] !== order.direction) throw invalidPageToken();
  return { seq: cursor[3], at: tokenMicros(cursor[4]), served: Number(cursor[5]) };
}

/**
 * perPage rows after the row the page token names, and the Link to the next page when there is one: the
 * token holds the last row's place in the listing, so a row deleted or added between pages moves no other
 * (a client deleting what each page lists skips nothing). `validKey` says whether a token's key can be one.
 */
export async function pagedAfter<T extends { place: string }>(
  ctx: APIContext,
  query: PageQuery,
  read: (from: ListPlace | undefined, limit: number) => Promise<T[]>,
  keyOf: (row: T) => string,
  validKey: (key: string) => boolean = () => true,
): Promise<T[]> {
  const perPage = perPageOf(query);
  let from: ListPlace | undefined;
  if (query.nextPageToken !== undefined) {
    const place = /^(-?\d{1,19})~(.{1,100})$/s.exec(Buffer.from(query.nextPageToken, 'base64url').toString());
    if (!place || !validKey(place[2])) throw invalidPageToken();
    from = { at: tokenMicros(place[1]), key: place[2] };
  }
  const rows = await read(from, perPage + 1);
  const last = rows[perPage - 1];
  if (rows.length > perPage) nextPageLink(ctx, `${last.place}~${keyOf(last)}`);
  return rows.slice(0, perPage);
}
