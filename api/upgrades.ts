import http from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { problem } from './errors';

/** An upgrade request's connection, held until a route accepts it or the app answers it over HTTP. */
interface PendingUpgrade {
  socket: Duplex;
  head: Buffer;
  /** Extra headers of the 101 answer (ws's `headers` event adds them). */
  headers: string[];
}

const pending = new WeakMap<http.IncomingMessage, PendingUpgrade>();

// Clients only ever send "_ready_"-style courtesies on these sockets: nothing they send is read.
// GS1's binding names no subprotocol: one a client offers is not taken (ws would take the first offered).
const sockets = new WebSocketServer({
  noServer: true,
  maxPayload: 4096,
  clientTracking: false,
  handleProtocols: () => false,
});
sockets.on('headers', (headers, req) => headers.push(...(pending.get(req)?.headers ?? [])));

/**
 * An upgrade request goes through the Koa app like any other request (`handle` is app.callback()), over
 * a response written to its own connection: the key check, its throttles, the validation and the error
 * answers are the ones every route has, so a refused upgrade is answered with the same problem body,
 * before any 101. A route that takes the upgrade calls acceptUpgrade; any other answer ends the connection.
 */
export function routeUpgrades(
  server: http.Server,
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>,
): void {
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    if (String(req.headers.upgrade).toLowerCase() !== 'websocket') {
      asPlainRequest(server, req, socket, head);
      return;
    }
    pending.set(req, { socket, head, headers: [] });
    const res = new http.ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as Socket);
    res.on('finish', () => {
      res.detachSocket(socket as Socket);
      socket.end();
    });
    void handle(req, res);
  });
}

/**
 * Another upgrade (`h2c`, which HTTP/2-capable clients offer on plain http) is declined by answering the
 * request over HTTP/1.1 (RFC 9110, 7.8), as Node did while no `upgrade` listener was registered: the
 * request is given back to the server without its Upgrade header, with the body bytes already read.
 */
function asPlainRequest(server: http.Server, req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
  const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const [name, value] = [req.rawHeaders[i], req.rawHeaders[i + 1]];
    const lower = name.toLowerCase();
    if (lower === 'upgrade') continue;
    if (lower === 'connection') {
      const kept = value
        .split(',')
        .map((token) => token.trim())
        .filter((token) => !['upgrade', 'http2-settings'].includes(token.toLowerCase()));
      if (kept.length) lines.push(`${name}: ${kept.join(', ')}`);
      continue;
    }
    lines.push(`${name}: ${value}`);
  }
  socket.unshift(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), head]));
  server.emit('connection', socket);
}

/** Whether the request asks for a WebSocket on a connection routeUpgrades holds. */
export const wantsWebSocket = (req: http.IncomingMessage): boolean => pending.has(req);

/**
 * Completes the handshake (101, with `headers` added) and hands the connection to the WebSocket.
 * A handshake ws finds malformed (no Sec-WebSocket-Key, an unknown version) is a 400 from the app.
 */
export function acceptUpgrade(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  headers: Record<string, string>,
): Promise<WebSocket> {
  const upgrade = pending.get(req);
  if (!upgrade) return Promise.reject(new Error('acceptUpgrade on a request routeUpgrades does not hold'));
  upgrade.headers = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return new Promise<WebSocket>((resolve, reject) => {
    const settled = () => {
      sockets.off('wsClientError', refused);
      upgrade.socket.off('close', gone);
    };
    const refused = (error: Error, _socket: Duplex, of: http.IncomingMessage) => {
      if (of !== req) return;
      settled();
      reject(problem('epcis-invalid-websocket-handshake', { detail: `${error.message}.` }));
    };
    const gone = () => {
      settled();
      reject(new Error('the client closed its connection during the WebSocket handshake'));
    };
    sockets.on('wsClientError', refused);
    upgrade.socket.once('close', gone);
    sockets.handleUpgrade(req, upgrade.socket, upgrade.head, (ws) => {
      settled();
      pending.delete(req);
      res.detachSocket(upgrade.socket as Socket);
      resolve(ws);
    });
  });
}
