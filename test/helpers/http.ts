import { get as httpGet } from 'node:http';
import { ContractChecker, type OpenApiLike } from './contract';

/**
 * A small HTTP client for the running API: real requests over loopback, nothing in-process. Every
 * response is checked against the API's own /openapi.json (test/helpers/contract.ts), so a test that
 * gets an undocumented status or a body off its schema fails, whatever else it asserts.
 */
export interface Response<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export const apiUrl = (): string => {
  const url = process.env.API_URL;
  if (!url) throw new Error('API_URL is not set: run the tests through jest (test/helpers/global-setup.ts).');
  return url;
};

export interface RequestOptions {
  key?: string;
  headers?: Record<string, string>;
  /** Sent as JSON unless it is already a string, Buffer or FormData. */
  body?: unknown;
  /** Another API process of the same stack (a second replica); the test stack's API when unset. */
  baseUrl?: string;
}

/**
 * fetch, sent once more when a GET or HEAD finds its reused keep-alive socket closed under it. undici
 * keeps an idle socket for the API's Keep-Alive hint less a second, on timers a second coarse, so a
 * loaded test process now and then reuses one the API is closing that instant ("other side closed"),
 * before anything was answered; RFC 9112 (9.3.1) lets a client retry an idempotent request then.
 */
async function fetchRetryingIdempotent(url: string, init: RequestInit): Promise<globalThis.Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    if (!['GET', 'HEAD'].includes(init.method ?? 'GET') || cause?.code !== 'UND_ERR_SOCKET') throw error;
    return fetch(url, init);
  }
}

export async function request<T = any>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<Response<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers['X-API-KEY'] = options.key;
  let body: RequestInit['body'];
  if (options.body instanceof FormData || typeof options.body === 'string' || Buffer.isBuffer(options.body)) {
    body = options.body as RequestInit['body'];
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const response = await fetchRetryingIdempotent(`${options.baseUrl ?? apiUrl()}${path}`, { method, headers, body });
  return conforming<T>(method, path, response.status, response.headers, await response.text());
}

/** The answer, its body parsed when it is JSON, once checked against /openapi.json. */
async function conforming<T>(
  method: string,
  path: string,
  status: number,
  headers: Headers,
  text: string,
): Promise<Response<T>> {
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  const mismatch = (await contract()).problemWith(method, path, status, headers.get('content-type'), parsed);
  if (mismatch) throw new Error(`Response does not conform to /openapi.json: ${mismatch}`);
  return { status, headers, body: parsed as T, text };
}

/**
 * A GET with exactly these headers (and Host): fetch gives a request without an Accept one taking any type, where
 * a client such as .NET's HttpClient sends no Accept at all.
 */
export function getWithExactHeaders<T = any>(path: string, headers: Record<string, string>): Promise<Response<T>> {
  return new Promise((resolve, reject) => {
    httpGet(`${apiUrl()}${path}`, { headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('error', reject);
      answer.on('end', () => {
        const answered = new Headers();
        for (const [name, value] of Object.entries(answer.headers))
          if (value !== undefined) answered.set(name, Array.isArray(value) ? value.join(', ') : value);
        conforming<T>('GET', path, answer.statusCode!, answered, Buffer.concat(chunks).toString('utf8')).then(
          resolve,
          reject,
        );
      });
    }).on('error', reject);
  });
}

let checker: Promise<ContractChecker> | undefined;

/** The document the running API serves, fetched once per test file. */
function contract(): Promise<ContractChecker> {
  checker ??= fetch(`${apiUrl()}/openapi.json`).then(async (response) => {
    if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
    return new ContractChecker((await response.json()) as OpenApiLike);
  });
  return checker;
}

/** Bound to one API key, for the common case. */
export function client(key: string) {
  return {
    get: <T = any>(path: string, headers?: Record<string, string>) => request<T>('GET', path, { key, headers }),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) =>
      request<T>('POST', path, { key, body, headers }),
    put: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) =>
      request<T>('PUT', path, { key, body, headers }),
  };
}
