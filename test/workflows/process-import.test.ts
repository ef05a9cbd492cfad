import { setTimeout as sleep } from 'node:timers/promises';
import { WorkflowFailedError } from '@temporalio/client';
import type { ImportChunkBatch, ImportFailure, SplitImportInput } from '../../pipeline/contracts';
import { processImport } from '../../workflows/process-import';
import { timeSkippingEnvironment, withStubWorker } from '../helpers/workflow-env';

const input: SplitImportInput = {
  importId: 'import-1',
  accountId: 'account-1',
  accountName: 'stubbed',
  requestId: null,
};

/** processImport with stub activities on the time-skipping test server: its split's retries and its batches' pace. */
describe('processImport', () => {
  const env = timeSkippingEnvironment();

  const batchSteps = (persist: () => Promise<void> = async () => undefined) => ({
    persistEvents: async () => {
      await persist();
      return { events: 1000, documents: false, commissions: false, recalculate: false };
    },
    attachDocuments: async () => ({ documentsNotAttached: {} }),
    recalculateTimeline: async () => undefined,
    commitLedger: async () => undefined,
    recordBatchStatus: async () => undefined,
  });

  it('a split that keeps failing gives up after 10 attempts; the import is recorded Failed with why, and fails', async () => {
    const failed: ImportFailure[] = [];
    let splits = 0;
    const outcome = await withStubWorker(
      env(),
      {
        ...batchSteps(),
        takeImportChunks: async () => null,
        splitImport: async (): Promise<ImportChunkBatch[]> => {
          splits++;
          throw new Error('the file is not a spreadsheet');
        },
        recordImportFailed: async (failure: ImportFailure) => void failed.push(failure),
      },
      (taskQueue) =>
        env()
          .client.workflow.execute(processImport, { taskQueue, workflowId: 'import-split-fails', args: [input] })
          .catch((error: unknown) => error),
    );
    const reason =
      'The file could not be split into batches (gave up after 10 attempts): the file is not a spreadsheet';
    expect(splits).toBe(10);
    expect(failed).toEqual([{ importId: 'import-1', reason }]);
    expect(outcome).toBeInstanceOf(WorkflowFailedError);
    expect((outcome as WorkflowFailedError).cause).toMatchObject({ type: 'ImportFailed', message: reason });
  });

  it('runs its stored batches as children, at most 4 at once', async () => {
    const chunks: ImportChunkBatch[] = Array.from({ length: 7 }, (_, seq) => ({
      seq,
      batchId: `chunk-${seq}`,
      workflowId: `import-2-${seq}`,
      eventCount: 1000,
    }));
    // The first batches' persists wait at a gate until 4 run at once (or 20 s pass): counted, not timed.
    let running = 0;
    let most = 0;
    let open = () => undefined as void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const deadline = setTimeout(open, 20_000);
    const result = await withStubWorker(
      env(),
      {
        ...batchSteps(async () => {
          most = Math.max(most, ++running);
          if (running === 4) open();
          await gate;
          await sleep(50);
          running--;
        }),
        takeImportChunks: async () => chunks,
        splitImport: async () => [],
        recordImportFailed: async () => undefined,
      },
      (taskQueue) =>
        env().client.workflow.execute(processImport, {
          taskQueue,
          workflowId: 'import-2',
          args: [{ ...input, importId: 'import-2', localMaxEvents: 50 }],
        }),
    );
    clearTimeout(deadline);
    expect(result).toEqual({ batches: 7, completed: 7, failed: 0 });
    expect(most).toBe(4);
  });
});
