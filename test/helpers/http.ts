/** A small HTTP client for the running API: real requests over loopback, nothing in-process. */
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
}

export async function request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<Response<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers['X-API-KEY'] = options.key;
  let body: RequestInit['body'];
  if (options.body instanceof FormData || typeof options.body === 'string' || Buffer.isBuffer(options.body)) {
    body = options.body as RequestInit['body'];
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const response = await fetch(`${apiUrl()}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** Bound to one API key, for the common case. */
export function client(key: string) {
  return {
    get: <T = any>(path: string, headers?: Record<string, string>) => request<T>('GET', path, { key, headers }),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => request<T>('POST', path, { key, body, headers }),
    put: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => request<T>('PUT', path, { key, body, headers }),
  };
}
