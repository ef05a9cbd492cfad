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

/**
 * The helpers every page's script starts with (put inside its function, where `key` is the key typed
 * in): an element by id, elements built from attributes (`text` as text, never markup), a message in
 * a target, and a call of the API with the key.
 */
export const PAGE_SCRIPT_HELPERS = `
  var $ = function (id) { return document.getElementById(id); };

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      if (name === 'text') node.textContent = attrs[name];
      else if (name === 'onclick') node.addEventListener('click', attrs[name]);
      else node.setAttribute(name, attrs[name]);
    });
    (children || []).forEach(function (child) { node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child); });
    return node;
  }

  function show(target, kind, text) {
    target.replaceChildren(text ? el('div', { class: 'message ' + kind, role: kind === 'error' ? 'alert' : 'status', text: text }) : document.createTextNode(''));
  }

  async function call(method, path) {
    var response = await fetch(path, { method: method, headers: { 'X-API-KEY': key, Accept: 'application/json' } });
    var body = null;
    try { body = await response.json(); } catch (e) { body = null; }
    return { status: response.status, body: body };
  }
`;

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
