import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../platform/logger';
import { ensureTemporalCli } from '../../supervisor/temporal-cli';
import { buildWorkflowBundle } from '../../worker/bundle';
import { startStack, type Stack } from './stack';

declare global {
  // eslint-disable-next-line no-var
  var __STACK__: Stack | undefined;
}

/** One stack per jest run; test files reach it through these environment variables. */
export default async function globalSetup(): Promise<void> {
  // The CLI npm start would use or install, for the tests that start a Temporal dev server of their own too.
  process.env.TEMPORAL_CLI_PATH ||= await ensureTemporalCli(
    undefined,
    createLogger(process.env.TEST_LOG_LEVEL ?? 'info', 'test-setup'),
  );
  // Fair use stays out of the way of the other tests (and of every process they start): the limits'
  // own tests set lower ones per account or per process.
  process.env.RATE_LIMIT_PER_SECOND ||= '100000';
  process.env.RATE_LIMIT_BURST ||= '100000';
  process.env.FAILED_KEYS_PER_MINUTE ||= '100000';
  // One workflow bundle, in the stack's data dir where npm start would write it, for every stack and worker the
  // suite starts (they inherit WORKFLOW_BUNDLE_PATH): each would otherwise webpack the workflows again, seconds
  // of CPU at every start. The workflows layer's, when its setup ran first, is the same code.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'traceability-test-'));
  fs.chmodSync(dir, 0o755); // so the postgres user reaches dir/pg itself
  if (!process.env.WORKFLOW_BUNDLE_PATH) {
    const bundle = path.join(dir, 'workflow-bundle.js');
    if (process.env.WORKFLOW_BUNDLE) fs.copyFileSync(process.env.WORKFLOW_BUNDLE, bundle);
    else await buildWorkflowBundle(bundle);
    process.env.WORKFLOW_BUNDLE_PATH = bundle;
  }
  const stack = await startStack({ DATA_DIR: dir });
  globalThis.__STACK__ = stack;
  process.env.API_URL = stack.state.apiUrl;
  process.env.DATABASE_URL = stack.state.databaseUrl;
  process.env.TEMPORAL_ADDRESS = stack.state.temporalAddress;
  process.env.STACK_DIR = stack.dir;
}
