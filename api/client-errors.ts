import type { Duplex } from 'node:stream';
import { LINGER_BYTES, closeWhenClientDoes } from './middleware/close-unread-body';

/** Node's own answers to a request its parser refused (lib/_http_server.js), by the error's code; others 400. */
const STATUS_LINES: Record<string, string> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};
/** Connections answered 431 whose rest is being dropped: Node's parser refuses each further chunk again. */
const draining = new WeakSet<Duplex>();

/**
 * Answers a request Node's HTTP parser refused as Node does, but one whose request line and headers pass
 * its 16 KB: Node closes that connection while the client is still sending, so the client sees a reset
 * and never reads the 431 (a query of many EPCs is one). Its answer is sent, then a lingering close as
 * an answer before its whole body has (middleware/close-unread-body.ts): at most LINGER_BYTES read.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (draining.has(socket)) {
    if ('bytesRead' in socket && Number(socket.bytesRead) > LINGER_BYTES) socket.pause();
    return;
  }
  // Node's own test: no answer of this connection has begun (`_httpMessage` is its answer in flight).
  const inFlight = (socket as Duplex & { _httpMessage?: { _headerSent?: boolean } | null })._httpMessage;
  const nothingSent = socket.writable && !inFlight?._headerSent;
  const response = `HTTP/1.1 ${STATUS_LINES[error.code ?? ''] ?? '400 Bad Request'}\r\nConnection: close\r\n\r\n`;
  if (nothingSent && error.code === 'HPE_HEADER_OVERFLOW') {
    draining.add(socket);
    socket.resume();
    socket.end(response);
    closeWhenClientDoes(socket);
    return;
  }
  if (nothingSent) socket.write(response);
  socket.destroy(error);
}
