import fs from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { workflowsPath } from '../../worker/bundle';

/**
 * Histories recorded from real batches (`temporal workflow show --output json`): a completed batch
 * with documents and a commission, and a batch rejected by persist, each from before and after the
 * BatchStatus search attribute (its patch marker and upserts). Replaying them against today's
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
