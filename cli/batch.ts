import { parseArgs } from 'node:util';
import type { Batch, BatchStatus } from '../db/models';
import { createRetry, findBatch, listBatches, RetryRefused, type BatchView } from '../db/repositories/batches';
import { batchStartOf, rejectionOf, startBatchWorkflow } from '../runtime/batch-workflow';
import { loadConfig } from '../runtime/config';
import { RECONCILER_WORKFLOW_ID } from '../runtime/reconciler';
import { readLiveState } from '../runtime/state';
import { connectTemporalClient } from '../runtime/temporal-client';
import { noService, run, withDatabase } from './database';

const USAGE = `usage:
  npm run --silent batch -- list [--status Accepted|Running|Completed|Failed] [--account NAME] [--limit N]
  npm run --silent batch -- show BATCH_ID [--request]     the batch as JSON (--request adds the events sent)
  npm run --silent batch -- retry BATCH_ID                 runs a failed batch's events again as a new batch

The same operations are GET /Integration/Batches, GET /Integration/Batches/{id} and
POST /Integration/Batches/{id}/retry with a support key, and the page at /support.`;

const STATUSES: readonly BatchStatus[] = ['Accepted', 'Running', 'Completed', 'Failed'];

/** The CLI runs on the database host with the operator's rights: every account's batches, like a support key. */
async function findOne(id: string | undefined): Promise<BatchView> {
  if (!id) throw new Error(`a batch id is required.\n${USAGE}`);
  const view = await findBatch('all', id);
  if (!view) throw new Error(`No batch ${id}.`);
  return view;
}

/** Temporal: TEMPORAL_ADDRESS when set, else the one the running `npm start` published. */
function temporalAddress(): string {
  const config = loadConfig();
  const address = config.temporalAddress ?? readLiveState(config.dataDir)?.temporalAddress;
  if (!address) throw noService(config.dataDir, 'TEMPORAL_ADDRESS');
  return address;
}

run(async () => {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      status: { type: 'string' },
      account: { type: 'string' },
      limit: { type: 'string' },
      request: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, id] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  await withDatabase(async () => {
    switch (command) {
      case 'list': {
        let status: BatchStatus | undefined;
        if (values.status) {
          status = STATUSES.find((st) => st.toLowerCase() === values.status!.toLowerCase());
          if (!status) throw new Error(`--status must be one of ${STATUSES.join(', ')}.`);
        }
        const limit = Number(values.limit ?? 50);
        const pageSize = Number.isInteger(limit) && limit > 0 ? limit : 50;
        const { views } = await listBatches('all', { status, accountName: values.account }, { pageNumber: 1, pageSize, offset: 0 });
        for (const { batch: b, accountName } of views) {
          console.log(
            [b.id, accountName, b.mode, b.status, `${b.eventCount} events`, b.submittedAt.toISOString(), b.completedAt?.toISOString() ?? '-', b.workflowId].join('\t'),
          );
        }
        return;
      }
      case 'show': {
        const { batch, accountName, retriedBy } = await findOne(id);
        const { request, ...rest } = batch.get({ plain: true });
        console.log(JSON.stringify({ ...rest, account: accountName, retriedBy, ...(values.request ? { request } : {}) }, null, 2));
        return;
      }
      case 'retry': {
        const original = await findOne(id);
        const config = loadConfig();
        let batch: Batch;
        try {
          batch = await createRetry(original.batch.id, null);
        } catch (error) {
          if (!(error instanceof RetryRefused)) throw error;
          // The reconciler's name helps whoever reads this at a shell: it is what will start an Accepted batch.
          throw new Error(original.batch.status === 'Accepted' ? `${error.message} (the ${RECONCILER_WORKFLOW_ID} workflow, after ${config.reconcileAfterSeconds} s)` : error.message);
        }
        const temporal = await connectTemporalClient(temporalAddress(), config.temporalNamespace);
        try {
          const handle = await startBatchWorkflow(temporal, config.taskQueue, batchStartOf(batch, original.accountName));
          try {
            const { events } = await handle.result();
            console.log(`batch ${batch.id} (retry of ${original.batch.id}): Completed, ${events} events created`);
          } catch (error) {
            const rejection = rejectionOf(error);
            if (!rejection) throw error;
            const lines = rejection.map((e) => `  event ${e.index ?? '-'} ${e.eventId ?? ''}: ${e.code} ${e.field ?? ''}: ${e.message}`);
            throw new Error([`batch ${batch.id} (retry of ${original.batch.id}): Failed again`, ...lines].join('\n'));
          }
        } finally {
          await temporal.connection.close();
        }
        return;
      }
      default:
        throw new Error(`Unknown command ${command}.\n${USAGE}`);
    }
  });
});
