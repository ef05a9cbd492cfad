import { startStack, type Stack } from './stack';

declare global {
  // eslint-disable-next-line no-var
  var __STACK__: Stack | undefined;
}

/** One stack per jest run; test files reach it through these environment variables. */
export default async function globalSetup(): Promise<void> {
  const stack = await startStack();
  globalThis.__STACK__ = stack;
  process.env.API_URL = stack.state.apiUrl;
  process.env.DATABASE_URL = stack.state.databaseUrl;
  process.env.TEMPORAL_ADDRESS = stack.state.temporalAddress;
  process.env.STACK_DIR = stack.dir;
}
