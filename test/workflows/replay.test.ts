import fs from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';

/**
 * Histories recorded from real runs, replayed against today's workflow code: a change that would break
 * runs already under way fails here. Guard such a change with `patched()`; once no run predates it, retire
 * the guard with `deprecatePatch()`; once no run predates the deprecation, remove the call, and with it
 * the histories recorded before it. Each `<version>-<scenario>.json` was recorded with stub activities on
 * the dev server by recorded-histories.test.ts (`RECORD_HISTORIES=<version>`): `deprecated-patches-*` by
 * the code that deprecated the 0.1 patches (their markers, deprecated), `no-patches-*` by code with no
 * patch in it: the code that removed them, and for `webhook-*` the code before 'webhook-bookkeeping-local'.
 */
const HISTORIES = path.join(__dirname, 'histories');

describe('the workflows replay recorded histories', () => {
  it.each(fs.readdirSync(HISTORIES).filter((file) => file.endsWith('.json')))(
    '%s',
    async (file) => {
      // runReplayHistory takes the CLI's JSON as it is.
      const history: unknown = JSON.parse(fs.readFileSync(path.join(HISTORIES, file), 'utf8'));
      await expect(
        Worker.runReplayHistory({ workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE! } }, history),
      ).resolves.toBeUndefined();
    },
    60_000,
  );
});
