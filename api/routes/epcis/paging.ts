import type { APIContext } from '../../context';
import { problem } from '../../errors';

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
