import fs from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  const stack = globalThis.__STACK__;
  if (!stack) return;
  await stack.stop();
  if (!process.env.KEEP_TEST_STACK) fs.rmSync(stack.dir, { recursive: true, force: true });
}
