import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { killStacks, startStack, type Stack } from '../helpers/stack';

/**
 * The Temporal dev server chooses its internal services' ports itself and binds them a moment later:
 * started beside other processes, it can lose one and panic before it answers. `npm start` starts it
 * again instead of giving up, and its log keeps the panic's first line.
 */
describe('npm start, when the Temporal dev server exits while starting', () => {
  const stacks: Stack[] = [];
  let dir: string;
  afterAll(() => {
    killStacks(stacks);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts it again, and logs why it exited with the head of its output', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-server-start-'));
    const cli = path.join(dir, 'temporal');
    // The first `server start-dev` dies as a lost port race does (a panic, then a long goroutine dump);
    // every later call is the real CLI's.
    fs.writeFileSync(
      cli,
      [
        '#!/bin/sh',
        `if [ "$1" = server ] && [ ! -e "${dir}/failed" ]; then`,
        `  touch "${dir}/failed"`,
        '  echo "panic: listen tcp 127.0.0.1:1: bind: address already in use" >&2',
        "  head -c 6000 /dev/zero | tr '\\0' '.' >&2",
        '  exit 2',
        'fi',
        `exec "${process.env.TEMPORAL_CLI_PATH}" "$@"`,
        '',
      ].join('\n'),
      { mode: 0o755 },
    );

    const stack = await startStack({ TEMPORAL_CLI_PATH: cli });
    stacks.push(stack);
    expect(fs.existsSync(path.join(dir, 'failed'))).toBe(true);
    const retried = fs
      .readFileSync(path.join(stack.dir, 'stack.log'), 'utf8')
      .split('\n')
      .filter((line) => line.includes('exited while starting'))
      .map((line) => JSON.parse(line) as { attempt: number; err: { message: string } });
    expect(retried).toHaveLength(1);
    expect(retried[0].attempt).toBe(1);
    expect(retried[0].err.message).toContain('panic: listen tcp 127.0.0.1:1: bind: address already in use');
  }, 240_000);
});
