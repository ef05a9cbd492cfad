import fs from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';

/**
 * Histories recorded from real runs, replayed against today's workflow code: a change that would break
 * runs already under way fails here (guard it with `patched()`, retire the guard with `deprecatePatch()`
 * once no run predates it, and remove it once no run predates the deprecation). Recorded from the whole
 * stack (`temporal workflow show --output json`): a completed batch with documents and a commission and
 * a batch rejected by persist, with their steps as activity tasks (`*-status`) and as local activities
 * (`*-local-steps`; `completed-batch-local-step-as-task`: a local step that kept failing went on as an
 * activity task; `completed-batch-final-balances`: a new lot, no recalculation), and an import that took
 * the batches its upload stored (`completed-import-chunks-stored-at-upload`), each with the markers of
 * the patches of its day. Recorded with stub activities on the dev server
 * (recorded-histories.test.ts, `RECORD_HISTORIES=<version>`): `deprecated-patches-*`, the code whose
 * patches were deprecated.
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
