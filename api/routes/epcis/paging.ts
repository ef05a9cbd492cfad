import type { APIContext } from '../../context';
import { problem } from '../../errors';
import { perPageOf, type PageQuery } from '../../../contract/epcis/schema';
import type { ListPlace } from '../../../db/repositories/epcis-queries';

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

export function seqOfToken(token: string | undefined): string | undefined {
  if (token === undefined) return undefined;
  const seq = Buffer.from(token, 'base64url').toString();
  if (!/^\d{1,18}$/.test(seq)) throw invalidPageToken();
  return seq;
}

/**
 * An events page token: the last event's seq and, in an order (`ordered`), its orderBy field in
 * microseconds since 1970 and how many events the pages so far held. A token of the other kind is refused.
 */
export function eventCursorOfToken(
  token: string | undefined,
  ordered: boolean,
): { seq: string; at?: string; served?: number } | undefined {
  if (token === undefined) return undefined;
  if (!ordered) return { seq: seqOfToken(token)! };
  const cursor = /^(\d{1,18})~(-?\d{1,19})~(\d{1,9})$/.exec(Buffer.from(token, 'base64url').toString());
  if (!cursor) throw invalidPageToken();
  return { seq: cursor[1], at: cursor[2], served: Number(cursor[3]) };
}

/**
 * perPage rows after the row the page token names, and the Link to the next page when there is one: the
 * token holds the last row's place in the listing, so a row deleted or added between pages moves no other
 * (a client deleting what each page lists skips nothing).
 */
export async function pagedAfter<T extends { place: string }>(
  ctx: APIContext,
  query: PageQuery,
  read: (from: ListPlace | undefined, limit: number) => Promise<T[]>,
  keyOf: (row: T) => string,
): Promise<T[]> {
  const perPage = perPageOf(query);
  let from: ListPlace | undefined;
  if (query.nextPageToken !== undefined) {
    const place = /^(-?\d{1,19})~(.{1,100})$/s.exec(Buffer.from(query.nextPageToken, 'base64url').toString());
    if (!place) throw invalidPageToken();
    from = { at: place[1], key: place[2] };
  }
  const rows = await read(from, perPage + 1);
  const last = rows[perPage - 1];
  if (rows.length > perPage) nextPageLink(ctx, `${last.place}~${keyOf(last)}`);
  return rows.slice(0, perPage);
}
