import type { APIContext } from '../../context';
import { problem } from '../../errors';
import { perPageOf, type PageQuery } from '../../../contract/epcis/schema';

/** The Link to the next page: its token is an opaque cursor (the last row's sequence number, or an offset). */
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

/** perPage rows from the page token's offset, and the Link to the next page when there is one. */
export async function paged<T>(
  ctx: APIContext,
  query: PageQuery,
  read: (offset: number, limit: number) => Promise<T[]>,
): Promise<T[]> {
  const perPage = perPageOf(query);
  const offset = Number(seqOfToken(query.nextPageToken) ?? 0);
  const rows = await read(offset, perPage + 1);
  if (rows.length > perPage) nextPageLink(ctx, String(offset + perPage));
  return rows.slice(0, perPage);
}
