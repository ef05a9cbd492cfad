import Router from '@koa/router';
import { createHash } from 'node:crypto';
import type { AppCustom, AppState } from './context';

/** A page served by the API whose only script and style are its own, inline. */
export interface InlinePage {
  title: string;
  style: string;
  script: string;
  /** The markup inside <body>, before the script. */
  body: string;
}

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** Only the page's own script and style run (by hash), and it talks to this origin only. */
export const inlinePageCsp = ({ script, style }: Pick<InlinePage, 'script' | 'style'>): string =>
  [
    "default-src 'none'",
    `script-src ${sha256(script)}`,
    `style-src ${sha256(style)}`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

export const inlinePageHtml = ({ title, style, script, body }: InlinePage): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<link rel="icon" href="data:,">
<style>${style}</style>
</head>
<body>
${body}
<script>${script}</script>
</body>
</html>
`;

/**
 * `GET path`: the page, served without a key. It holds no data: it asks the key-checked operations
 * with the key typed into it.
 */
export function inlinePageRouter(path: string, page: InlinePage): Router<AppState, AppCustom> {
  const html = inlinePageHtml(page);
  const csp = inlinePageCsp(page);
  const router = new Router<AppState, AppCustom>();
  router.get(path, (ctx) => {
    ctx.type = 'text/html';
    ctx.set('Content-Security-Policy', csp);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = html;
  });
  return router;
}
