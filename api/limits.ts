import type { IncomingHttpHeaders } from 'node:http';

/**
 * Whether the request's Content-Length already says its body is over `limit` bytes: then it is refused
 * before a byte is read. Not Koa's `request.length`, which keeps 32 bits of it (4 GB reads as 0).
 */
export const declaredOver = (headers: IncomingHttpHeaders, limit: number): boolean =>
  Number(headers['content-length'] ?? 0) > limit;
