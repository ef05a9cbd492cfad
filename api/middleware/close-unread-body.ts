import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Middleware } from 'koa';
import type { AppCustom, AppState } from '../context';

/** How long a closing connection waits for its client to close too, and how much it reads meanwhile. */
const LINGER_MS = 2000;
export const LINGER_BYTES = 1024 * 1024;

const hasBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/**
 * RFC 9112 (9.6)'s staged close, bounded: the answer and a FIN go out, then the socket stays open until
 * the client closes too or LINGER_MS pass, reading at most LINGER_BYTES of what it still sends (then
 * nothing more). Destroyed at once with bytes still unread, as Node's server does for Connection: close,
 * a socket sends a reset, and a client still writing its body (Node's own fetch does) fails with EPIPE
 * before it reads the answer waiting for it.
 */
function lingeringClose(req: IncomingMessage): void {
  const { socket } = req;
  socket.end();
  closeWhenClientDoes(socket);
  let read = 0;
  socket.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read <= LINGER_BYTES) return;
    // The request too: a flowing request asks the socket for more (IncomingMessage's _read resumes it),
    // and the socket alone, paused, read on to 8 MB.
    req.pause();
    socket.pause();
  });
  // Nothing listens to the request any more: the HTTP parser drops what it reads.
  req.resume();
}

/** Destroys a socket whose answer has gone out once its client closes too, or after LINGER_MS. */
export function closeWhenClientDoes(socket: Duplex): void {
  const close = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(close, LINGER_MS);
  socket.once('end', close);
  socket.once('close', () => clearTimeout(timer));
}

/**
 * An answer given before the request's body has all arrived (no key, a wrong one, a body over its limit,
 * no route) closes the connection: Node would otherwise read and discard the rest to keep the connection
 * for another request, however long the body says it is (a 4 GB one was read to its end).
 */
export function closeUnreadBody(): Middleware<AppState, AppCustom> {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      if (hasBody(ctx.req) && !ctx.req.complete) {
        ctx.set('Connection', 'close');
        ctx.req.pause();
        // What Node's server calls once an answer with Connection: close is written (at once by default).
        ctx.req.socket.destroySoon = () => lingeringClose(ctx.req);
      }
    }
  };
}
