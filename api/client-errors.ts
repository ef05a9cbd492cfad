import type { Duplex } from 'node:stream';

/** Node's own answers to a request its parser refused (lib/_http_server.js), by the error's code; others 400. */
const STATUS_LINES: Record<string, string> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};
/** How long the rest of an oversized request head is read and dropped before the connection is cut. */
const DRAIN_MS = 5000;
/** Connections answered 431 whose rest is being dropped: Node's parser refuses each further chunk again. */
const draining = new WeakSet<Duplex>();

/**
 * Answers a request Node's HTTP parser refused as Node does, but one whose request line and headers pass
 * its 16 KB: Node closes that connection while the client is still sending, so the client sees a reset
 * and never reads the 431 (a query of many EPCs is one). Its answer is sent, what still arrives dropped.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (draining.has(socket)) return;
  // Node's own test: no answer of this connection has begun (`_httpMessage` is its answer in flight).
  const inFlight = (socket as Duplex & { _httpMessage?: { _headerSent?: boolean } | null })._httpMessage;
  const nothingSent = socket.writable && !inFlight?._headerSent;
  const response = `HTTP/1.1 ${STATUS_LINES[error.code ?? ''] ?? '400 Bad Request'}\r\nConnection: close\r\n\r\n`;
  if (nothingSent && error.code === 'HPE_HEADER_OVERFLOW') {
    draining.add(socket);
    socket.resume();
    setTimeout(() => socket.destroy(), DRAIN_MS).unref();
    socket.end(response);
    return;
  }
  if (nothingSent) socket.write(response);
  socket.destroy(error);
}
