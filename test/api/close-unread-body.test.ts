import net from 'node:net';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { closeUnreadBody, LINGER_BYTES } from '../../api/middleware/close-unread-body';

const MB = 1024 * 1024;

/**
 * The middleware alone, on a Koa app of its own: a handler answers 413 after reading 4 MB of a chunked
 * body that never ends, as a body limit does. What the server reads after its answer is bounded.
 */
describe('an answer before the body has all arrived', () => {
  it('closes the connection after reading at most LINGER_BYTES more of what the client still sends', async () => {
    // What the server read after its answer, once it has closed the socket (at the client's FIN, or after LINGER_MS).
    let readAfterAnswer!: Promise<number>;
    const app = new Koa();
    app.use(closeUnreadBody() as unknown as Koa.Middleware);
    app.use(async (ctx) => {
      let got = 0;
      await new Promise<void>((resolve) => {
        ctx.req.on('data', (chunk: Buffer) => {
          got += chunk.length;
          if (got < 4 * MB) return;
          ctx.req.removeAllListeners('data');
          resolve();
        });
      });
      const { socket } = ctx.req;
      const atAnswer = socket.bytesRead;
      readAfterAnswer = new Promise((resolve) => socket.once('close', () => resolve(socket.bytesRead - atAnswer)));
      ctx.status = 413;
      ctx.body = 'too large';
    });
    const server = app.listen(0);
    try {
      const { port } = server.address() as AddressInfo;
      const client = net.connect(port, '127.0.0.1');
      const frame = Buffer.concat([Buffer.from('10000\r\n'), Buffer.alloc(0x10000, 'a'), Buffer.from('\r\n')]);
      const pump = () => {
        while (!client.destroyed) if (!client.write(frame)) return;
      };
      let answer = '';
      const closed = new Promise<void>((resolve) => client.on('close', () => resolve()));
      client.on('connect', () => {
        client.write('POST / HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n');
        pump();
      });
      client.on('drain', pump);
      client.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
      client.on('error', () => undefined);
      await closed;
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toMatch(/\r\nConnection: close\r\n/i);
      // Once read to its cap, neither the socket nor the request reads on (Node's request resumed the socket before).
      expect(await readAfterAnswer).toBeLessThan(LINGER_BYTES + MB);
    } finally {
      server.close();
    }
  });
});
