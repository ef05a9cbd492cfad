import Router from '@koa/router';
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { PROJECT_ROOT } from '../platform/config';
import type { AppCustom, AppState } from './context';

/**
 * A page served by the API whose script is a TypeScript file under web/ (type-checked by
 * web/tsconfig.json), bundled with its imports (elkjs included) by esbuild on the first request, so the
 * page needs nothing but this service: no CDN, works offline.
 */
export interface BrowserPage {
  title: string;
  /** The page's own style; the header and navigation every page shares (PAGE_STYLE) come before it. */
  style: string;
  /** The markup inside <body>, before the script. */
  body: string;
  /** The script's entry, relative to web/ (e.g. `trace.ts`). */
  entry: string;
}

/** The pages one navigation joins, in its order: each page's header links to all of them. */
const PAGES = [
  { name: 'trace', path: '/trace', label: 'Trace' },
  { name: 'recalls', path: '/recalls', label: 'Recalls' },
  { name: 'support', path: '/support', label: 'Support' },
  { name: 'imports', path: '/imports', label: 'Imports' },
  { name: 'docs', path: '/docs', label: 'API docs' },
] as const;

export type PageName = (typeof PAGES)[number]['name'];

/** The navigation between the pages, the current one marked. */
const navMarkup = (current: PageName): string =>
  `<nav aria-label="Pages">${PAGES.map(
    (p) => `<a href="${p.path}"${p.name === current ? ' aria-current="page"' : ''}>${p.label}</a>`,
  ).join('')}</nav>`;

/** Every page's header: its title, the navigation, and (#who) whom the key signed in as. */
export const headerMarkup = (title: string, current: PageName): string => `<header>
  <h1>${title}</h1>
  ${navMarkup(current)}
  <span id="who"></span>
</header>`;

/** The header's look, the same on every page (/docs included). */
export const HEADER_STYLE = `
header { background: #22313f; color: #fff; padding: 0 20px; display: flex; gap: 20px; align-items: center; min-height: 46px; font: 14px/1.4 system-ui, sans-serif; }
header h1 { font-size: 17px; margin: 0; white-space: nowrap; }
header nav { display: flex; gap: 2px; flex: 1; align-self: stretch; }
header nav a { color: #c9d6e3; text-decoration: none; padding: 0 12px; display: flex; align-items: center; border-bottom: 3px solid transparent; white-space: nowrap; }
header nav a:hover { color: #fff; background: #2c3e50; }
header nav a[aria-current=page] { color: #fff; border-bottom-color: #6cb4ff; font-weight: 600; }
header #who { white-space: nowrap; }
`;

/** The sign-in form and its message, as web/session.ts's signInForm finds them. */
export const SIGN_IN_FORM = `<form id="sign-in" autocomplete="off">
      <label for="key">API key</label>
      <input id="key" type="password" name="key" spellcheck="false">
      <button class="action" type="submit">Sign in</button>
    </form>
    <div id="sign-in-message"></div>`;

/**
 * A page whose script is `web/<name>.ts`: its header, the sign-in form whose elements web/session.ts's
 * signInForm wires (#who, #signed-out, #sign-in, #key, #sign-in-message), then what a key shows
 * (#signed-in, hidden until one signed in).
 */
export const signInPage = (
  name: PageName,
  { title, intro, style, signedIn }: { title: string; intro: string; style: string; signedIn: string },
): BrowserPage => ({
  title,
  style,
  entry: `${name}.ts`,
  body: `${headerMarkup(title, name)}
<main>
<div id="signed-out">
  <section>
    <h2>Sign in</h2>
    <p>${intro}</p>
    ${SIGN_IN_FORM}
  </section>
</div>

<div id="signed-in" hidden>
${signedIn}</div>
</main>`,
});

interface Bundle {
  code: string;
  /** `sha256-…` of the code: the script tag's integrity and the CSP's only allowed script. */
  hash: string;
}

const sha256 = (text: string): string => `sha256-${createHash('sha256').update(text).digest('base64')}`;

/** One bundle per entry for the life of the process: the sources do not change under a running server. */
const bundles = new Map<string, Promise<Bundle>>();

function bundleOf(entry: string): Promise<Bundle> {
  let bundle = bundles.get(entry);
  if (!bundle) {
    bundle = build({
      entryPoints: [path.join(PROJECT_ROOT, 'web', entry)],
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: 'es2022',
      minify: true,
      legalComments: 'eof', // elkjs's licence (EPL-2.0) travels with it
      logLevel: 'silent',
    }).then(({ outputFiles: [file] }) => ({ code: file.text, hash: sha256(file.text) }));
    // A failed build is retried by the next request instead of being cached.
    void bundle.catch(() => bundles.delete(entry));
    bundles.set(entry, bundle);
  }
  return bundle;
}

/** Only the page's own script (by hash) and style (by hash) run, and it talks to this origin only. */
const browserPageCsp = (style: string, script: Bundle): string =>
  [
    "default-src 'none'",
    `script-src '${script.hash}'`,
    `style-src '${sha256(style)}'`,
    "connect-src 'self'",
    "img-src 'self' data: blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

/** A short, URL-safe piece of the hash: the script's URL changes with its content. */
const versionOf = (script: Bundle): string =>
  script.hash.slice('sha256-'.length, 'sha256-'.length + 12).replace(/[^A-Za-z0-9]/g, '_');

/** What every page (not /docs) looks like before its own style: its text, messages and empty lists. */
const BASE_STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1b1f24; background: #f6f7f9; }
.message.error { background: #fdecea; color: #7a1d16; } .message.info { background: #e8f1fb; color: #0b3d6b; }
.empty { color: #68707a; font-style: italic; }
[hidden] { display: none !important; }
`;

const styleOf = (page: BrowserPage): string => BASE_STYLE + HEADER_STYLE + page.style;

const pageHtml = (page: BrowserPage, scriptPath: string, script: Bundle): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${page.title}</title>
<link rel="icon" href="data:,">
<style>${styleOf(page)}</style>
</head>
<body>
${page.body}
<script src="${scriptPath}?v=${versionOf(script)}" integrity="${script.hash}"></script>
</body>
</html>
`;

/**
 * `GET path` (the page) and `GET path/page.js` (its bundled script), both served without a key: they
 * hold no data; the script asks the key-checked operations with the key typed into the page.
 */
export function browserPageRouter(pagePath: string, page: BrowserPage): Router<AppState, AppCustom> {
  const scriptPath = `${pagePath}/page.js`;
  const router = new Router<AppState, AppCustom>();
  router.get(pagePath, async (ctx) => {
    const script = await bundleOf(page.entry);
    ctx.type = 'text/html';
    ctx.set('Content-Security-Policy', browserPageCsp(styleOf(page), script));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = pageHtml(page, scriptPath, script);
  });
  router.get(scriptPath, async (ctx) => {
    const script = await bundleOf(page.entry);
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set('X-Content-Type-Options', 'nosniff');
    // The page's URL for it carries its hash, so a new bundle is a new URL and this one can be kept.
    ctx.set('Cache-Control', ctx.query.v === versionOf(script) ? 'public, max-age=31536000, immutable' : 'no-cache');
    ctx.body = script.code;
  });
  return router;
}
