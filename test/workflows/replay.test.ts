import fs from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { workflowsPath } from '../../worker/bundle';

/**
 * Histories recorded from real batches (`temporal workflow show --output json`): a completed batch
 * with documents and a commission, and a batch rejected by persist, each from before and after the
 * BatchStatus search attribute (its patch marker and upserts), and with its steps as local activities
 * (`*-local-steps`: one workflow task, a marker per step; `completed-batch-local-step-as-task`: a local
 * step that kept failing went on as an activity task; `completed-batch-final-balances`: a new lot, whose
 * persist stored its balances final, so no recalculation ran). `small-batch-run-before-local-steps` is a
 * small batch's input (eventCount, localMaxEvents) run by a worker from before local steps, with
 * activity tasks, as in a rolling upgrade: it replays as it ran. `completed-import` and `failed-import`
 * are processImport runs whose split step read the stored file; `completed-import-chunks-stored-at-upload`
 * one that took the batches its upload stored (its patch marker, one local activity, three children).
 * `closed-recall` is a followRecall run from issue to close (test/api/recall-effectiveness.test.ts): a
 * start before the recall's commit, signals, a reminder's timer, passes that reminded and found overdue.
 * Replaying them against today's
 * workflow code catches a change that would break batches already running (fix it with `patched()`).
 */
const HISTORIES = path.join(__dirname, 'histories');

describe('processEventBatch replays recorded histories', () => {
  it.each(fs.readdirSync(HISTORIES).filter((file) => file.endsWith('.json')))(
    '%s',
    async (file) => {
      // runReplayHistory takes the CLI's JSON as it is.
      const history: unknown = JSON.parse(fs.readFileSync(path.join(HISTORIES, file), 'utf8'));
      await expect(Worker.runReplayHistory({ workflowsPath: workflowsPath() }, history)).resolves.toBeUndefined();
    },
    60_000,
  );
});
