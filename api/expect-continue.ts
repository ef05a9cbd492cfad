import type { IncomingMessage, ServerResponse } from 'node:http';

const continued = new WeakSet<ServerResponse>();

/**
 * Sends `100 Continue` to a request that waits for it (`Expect: 100-continue`, as curl sends with a
 * large body) once its body is about to be read. The server does not send it by itself (api/main.ts
 * listens to 'checkContinue'), so a request refused before its body is read (no key, a wrong one, a
 * length over the limit) is answered before the client sends a byte of the body.
 */
export function readingBody(req: IncomingMessage, res: ServerResponse): void {
  if (!/^\s*100-continue\s*$/i.test(req.headers.expect ?? '') || continued.has(res) || res.headersSent) return;
  continued.add(res);
  res.writeContinue();
}
