/**
 * What every page's script needs (api/browser-page.ts serves them): elements by id, elements built from
 * attributes (`text` as text, never markup), a message in a target, and calls of the API with the key
 * typed into the page.
 */

export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`The page has no #${id}.`);
  return found as T;
}

export type Attributes = Record<string, string> & { text?: string };
/** A child of an element; null is none, so a child shown only in some case is written in its place. */
export type Child = Node | string | null;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attributes = {},
  children: Child[] = [],
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === 'text') node.textContent = value;
    else node.setAttribute(name, value);
  }
  node.append(...children.filter((child) => child !== null));
  return node;
}

/** A table's head; a heading given as [text, class] takes that class (the CSP allows no style attributes). */
export const thead = (headings: (string | [text: string, cls: string])[]): HTMLTableSectionElement =>
  el('thead', {}, [
    el(
      'tr',
      {},
      headings.map((h) => el('th', typeof h === 'string' ? { text: h } : { text: h[0], class: h[1] })),
    ),
  ]);

/** A table of `rows` under its headings. */
export const table = (attrs: Attributes, headings: Parameters<typeof thead>[0], rows: Node[]): HTMLTableElement =>
  el('table', attrs, [thead(headings), el('tbody', {}, rows)]);

export const SVG_NS = 'http://www.w3.org/2000/svg';

export function svgEl<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number> = {},
  text?: string,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

export function show(target: HTMLElement, kind: 'error' | 'info', text: string): void {
  target.replaceChildren(
    text ? el('div', { class: `message ${kind}`, role: kind === 'error' ? 'alert' : 'status', text }) : '',
  );
}

export interface Answer<T> {
  status: number;
  body: T | null;
}

/** A problem answer (RFC 9457 with `errors` per field) as one sentence: its `detail` when it has one. */
export function reason(answer: Answer<unknown>): string {
  const body = (answer.body ?? {}) as {
    title?: string;
    detail?: string;
    message?: string;
    errors?: Record<string, string[]>;
  };
  if (body.detail) return body.detail;
  const errors =
    body.errors && typeof body.errors === 'object'
      ? Object.values(body.errors)
          .map((e) => e.join(' '))
          .join(' ')
      : '';
  return (body.title || body.message || `HTTP ${answer.status}`) + (errors ? `: ${errors}` : '');
}

/** A page of a list as the API answers it. */
export interface Page<T> {
  results: T[];
  totalPages: number;
}

/** What else a call may send: more headers, and a signal that cancels it. */
export interface CallOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A call of the API with the key; `json`, when given, is sent as the request's JSON body (a form as it is). */
export async function call<T>(
  key: string,
  method: string,
  path: string,
  json?: unknown,
  { headers: more = {}, signal }: CallOptions = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...more, 'X-API-KEY': key, Accept: 'application/json' };
  const form = json instanceof FormData;
  if (json !== undefined && !form) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    body: json === undefined || form ? json : JSON.stringify(json),
    signal,
  });
  let body: T | null = null;
  try {
    body = (await response.json()) as T;
  } catch {
    body = null;
  }
  return { status: response.status, body };
}
