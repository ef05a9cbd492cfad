import type { APIContext } from '../../context';
import { problem } from '../../errors';
import { perPageOf, type PageQuery } from '../../../contract/epcis/schema';

/** The Link to the next page: its token is an opaque cursor (the last row's sequence number). */
export function nextPageLink(ctx: APIContext, lastSeq: string | undefined): void {
  if (lastSeq === undefined) return;
  const params = new URLSearchParams(ctx.querystring);
  params.set('nextPageToken', Buffer.from(lastSeq).toString('base64url'));
  ctx.set('Link', `<${ctx.path}?${params.toString()}>; rel="next"`);
}

export function seqOfToken(token: string | undefined): string | undefined {
  if (token === undefined) return undefined;
  const seq = Buffer.from(token, 'base64url').toString();
  if (!/^\d{1,18}$/.test(seq))
    throw problem('epcis-invalid-page-token', {
      issues: [{ pointer: '/nextPageToken', message: 'nextPageToken is not valid.' }],
    });
  return seq;
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
