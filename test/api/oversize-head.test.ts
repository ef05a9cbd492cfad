import net from 'node:net';
import { apiUrl } from '../helpers/http';

/**
 * What the API answers a request head sent as a simple client sends it (Python's requests, schemathesis):
 * as fast as the connection takes it, its answer read only once the whole head is out.
 */
async function answerTo(head: string): Promise<string> {
  const { hostname, port } = new URL(apiUrl());
  const socket = net.connect(Number(port), hostname);
  socket.pause();
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  const closed = new Promise<string>((resolve) => {
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(`${answer}[${error.code}]`));
    socket.once('close', () => resolve(answer));
  });
  await new Promise((resolve) => socket.once('connect', resolve));
  let failed = '';
  for (let at = 0; at < head.length && !failed; at += 16 * 1024) {
    await new Promise<void>((resolve) =>
      socket.write(head.slice(at, at + 16 * 1024), (error?: NodeJS.ErrnoException | null) => {
        if (error) failed = `[sending: ${error.code}]`;
        resolve();
      }),
    );
    // Still sending when the server has read its first 16 KB.
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  if (!failed) socket.end();
  socket.resume();
  return failed + (await closed);
}

describe('a request line and headers over Node’s 16 KB', () => {
  it('is answered 431, not with a reset connection, though the client was still sending', async () => {
    // A query of many EPCs, as GDST's client asks for a trace it has followed far: about 200 KB.
    const epcs = Array.from({ length: 4000 }, (_, i) => `urn:epc:class:lgtin:4012345.011111.LOT-${i}`).join('|');
    const answer = await answerTo(
      `GET /epcis/events?MATCH_anyEPCClass=${encodeURIComponent(epcs)} HTTP/1.1\r\nHost: test\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
  });

  it('a request Node cannot parse is still answered 400, as Node answers it', async () => {
    expect(await answerTo('NOT HTTP\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  });
});
