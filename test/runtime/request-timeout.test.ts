import fs from 'node:fs';
import net from 'node:net';
import { cli, pointedAt } from '../helpers/cli';
import { startStack, type Stack } from '../helpers/stack';

describe('a request body that does not arrive in time', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ REQUEST_TIMEOUT_SECONDS: '2' });
  }, 300_000);
  afterAll(async () => {
    await stack?.stop();
    if (stack && !process.env.KEEP_TEST_STACK) fs.rmSync(stack.dir, { recursive: true, force: true });
  }, 60_000);

  it('is answered 408 and its connection closed (REQUEST_TIMEOUT_SECONDS)', async () => {
    // A real key: without one the API answers 400 at once, before it reads any body.
    const key = cli('cli/apikey.ts', ['create', '--account', 'slow-body'], pointedAt(stack.dir)).stdout.trim();
    expect(key).toMatch(/^trc_/);
    const { hostname, port } = new URL(stack.state.apiUrl);
    const socket = net.connect(Number(port), hostname);
    socket.on('error', () => undefined);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    await new Promise((resolve) => socket.once('connect', resolve));
    const sentAt = Date.now();
    socket.write(
      `POST /Integration/Events HTTP/1.1\r\nHost: test\r\nX-API-KEY: ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
    );
    // A byte every 200 ms: always something arriving, never the whole body.
    const trickle = setInterval(() => socket.writable && socket.write('['), 200);
    try {
      const closedAt = await Promise.race([
        closed,
        new Promise<number>((resolve) => setTimeout(() => resolve(-1), 20_000)),
      ]);
      expect(closedAt).not.toBe(-1);
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(closedAt - sentAt).toBeGreaterThanOrEqual(2000);
      expect(closedAt - sentAt).toBeLessThan(10_000);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  }, 60_000);
});
