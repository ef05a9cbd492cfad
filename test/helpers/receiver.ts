import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
  /** The status the receiver answered, once the answer reached an open connection (undefined: not (yet) answered). */
  answered?: number;
}

/** How the receiver answers one request: a status, or hanging for `hangMs` before answering 200. */
export type Answer = number | { hangMs: number };

/**
 * A real HTTP receiver on loopback, as an integrator would run one: it records every request and answers
 * with `answer(request number)` (200 unless told).
 */
export interface Receiver {
  url: string;
  received: Received[];
  answer: (index: number, request: Received) => Answer;
  /** Resolves once `count` requests satisfying `where` have arrived. */
  waitFor(count: number, where?: (request: Received) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hooks'): Promise<Receiver> {
  const sockets = new Set<import('node:net').Socket>();
  const receiver: Receiver = {
    url: '',
    received: [],
    answer: () => 200,
    async waitFor(count, where = () => true, timeoutMs = 45_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = receiver.received.filter(where);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline)
          throw new Error(`the receiver got ${matching.length} of ${count} expected requests within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      const index = receiver.received.length;
      receiver.received.push(request);
      const answer = receiver.answer(index, request);
      const send = (status: number) => {
        // A sender that gave up (timed out, or was killed) never got this answer.
        if (req.socket.destroyed) return;
        res.writeHead(status).end();
        request.answered = status;
      };
      if (typeof answer === 'number') send(answer);
      else setTimeout(() => send(200), answer.hangMs).unref();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}
