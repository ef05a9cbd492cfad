import net from 'node:net';

/**
 * A request written byte by byte on a socket of its own, for what fetch will not do: declare a length
 * and send less (or far more), keep sending after the answer, send a chunked body that never ends. It
 * tells what came back, whether the server closed the connection, and how much of the body got out.
 */
export interface RawRequest {
  /** The API's base URL (http://host:port). */
  baseUrl: string;
  method?: string;
  path: string;
  headers: Record<string, string>;
  /**
   * The body: `declared` bytes behind a Content-Length (`send` of them actually sent, all by default),
   * or chunked, ending after `send` bytes or never (`Infinity`, until the server closes).
   */
  body: { declared: number; send?: number } | { chunked: true; send: number };
  /** How long to wait, once answered, for the server to close the connection. */
  closeWithinMs?: number;
  /** How long to wait for an answer at all. */
  answerWithinMs?: number;
  /** Stop sending and close once the answer's head is in (closed is then null), as a hasty client does. */
  stopOnAnswer?: boolean;
}

export interface RawAnswer {
  /** 0 when no answer came in time. */
  status: number;
  /** Lower-cased names. */
  headers: Record<string, string>;
  text: string;
  /** Milliseconds from the request's head to the end of the answer's head. */
  answeredAfterMs: number;
  /** Whether the server closed the connection within closeWithinMs of its answer (null: stopOnAnswer). */
  closed: boolean | null;
  /** Body bytes the client got into its socket (the kernel's buffers hold a few MB the server never read). */
  bodyBytesWritten: number;
}

const CHUNK = Buffer.alloc(64 * 1024, 'a');

export function rawRequest(options: RawRequest): Promise<RawAnswer> {
  const { hostname, port } = new URL(options.baseUrl);
  const { body, closeWithinMs = 5000, answerWithinMs = 10_000 } = options;
  const chunked = 'chunked' in body;
  const toSend = chunked ? body.send : (body.send ?? body.declared);
  const headers = {
    Host: `${hostname}:${port}`,
    ...options.headers,
    ...(chunked ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': String(body.declared) }),
  };
  const head =
    `${options.method ?? 'POST'} ${options.path} HTTP/1.1\r\n` +
    Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('') +
    '\r\n';

  return new Promise<RawAnswer>((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const started = Date.now();
    let received = Buffer.alloc(0);
    let answeredAt = 0;
    let queued = 0;
    let finished = false;
    const timers: NodeJS.Timeout[] = [];

    const finish = (closed: boolean | null) => {
      if (finished) return;
      finished = true;
      for (const timer of timers) clearTimeout(timer);
      const bodyBytesWritten = Math.max(0, socket.bytesWritten - Buffer.byteLength(head));
      socket.destroy();
      const text = received.toString('latin1');
      const headEnd = text.indexOf('\r\n\r\n');
      const lines = (headEnd < 0 ? '' : text.slice(0, headEnd)).split('\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
      const answerHeaders = Object.fromEntries(
        lines.slice(1).map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      resolve({
        status,
        headers: answerHeaders,
        text: headEnd < 0 ? '' : text.slice(headEnd + 4),
        answeredAfterMs: answeredAt ? answeredAt - started : -1,
        closed,
        bodyBytesWritten,
      });
    };

    // Writes until the kernel's buffers are full, then again on 'drain': as fast as the server reads.
    const pump = () => {
      while (!socket.destroyed && queued < toSend) {
        const size = Math.min(CHUNK.length, toSend - queued);
        const part = size === CHUNK.length ? CHUNK : CHUNK.subarray(0, size);
        queued += size;
        const more = socket.write(
          chunked ? Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), part, Buffer.from('\r\n')]) : part,
        );
        if (!more) return;
      }
      if (chunked && queued >= toSend && Number.isFinite(toSend) && !socket.destroyed) socket.write('0\r\n\r\n');
    };

    socket.on('connect', () => {
      socket.write(head);
      pump();
    });
    socket.on('drain', pump);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (!answeredAt && received.includes('\r\n\r\n')) {
        answeredAt = Date.now();
        timers.push(setTimeout(() => finish(false), closeWithinMs));
        if (options.stopOnAnswer) finish(null);
      }
    });
    // EPIPE or ECONNRESET while still sending: the server stopped reading and closed; what it answered
    // is already in the socket's buffer and still arrives.
    socket.on('error', () => undefined);
    socket.on('close', () => finish(answeredAt > 0));
    timers.push(setTimeout(() => finish(false), answerWithinMs));
  });
}
