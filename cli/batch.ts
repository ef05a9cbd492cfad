import { parseArgs } from 'node:util';
import type { Batch, BatchStatus } from '../db/models';
import { abandonBatch, AbandonRefused, createRetry, findBatch, listBatches, RetryRefused, type BatchView } from '../db/repositories/batches';
import { abandonBody } from '../api/routes/batches/schema';
import { batchStartOf, rejectionOf, startBatchWorkflow } from '../batches/batch-workflow';
import type { BatchError } from '../workflows/contracts';
import { loadConfig } from '../platform/config';
import { RECONCILER_WORKFLOW_ID } from '../batches/reconciler';
import { readLiveState } from '../supervisor/state';
import { connectTemporalClient } from '../platform/temporal-client';
import { noService, run, withDatabase } from './database';

const USAGE = `usage:
  npm run --silent batch -- list [--status Accepted|Running|Completed|Failed] [--account NAME] [--limit N]
  npm run --silent batch -- show BATCH_ID [--request]     the batch as JSON (--request adds the events sent)
  npm run --silent batch -- retry BATCH_ID                 runs a failed batch's events again as a new batch
  npm run --silent batch -- abandon BATCH_ID --reason TEXT  marks a failed batch Abandoned: kept, no longer open

The same operations are GET /Integration/Batches, GET /Integration/Batches/{id},
POST /Integration/Batches/{id}/retry and .../abandon with a support key, and the page at /support.`;

/** As POST /Integration/Batches/{id}/abandon takes it. */
const MAX_REASON_LENGTH = abandonBody.properties.Reason.maxLength;

const STATUSES: readonly BatchStatus[] = ['Accepted', 'Running', 'Completed', 'Failed'];

/** The CLI runs on the database host with the operator's rights: every account's batches, like a support key. */
async function findOne(id: string | undefined): Promise<BatchView> {
  if (!id) throw new Error(`a batch id is required.\n${USAGE}`);
  const view = await findBatch('all', id);
  if (!view) throw new Error(`No batch ${id}.`);
  return view;
}

/** Where a batch's case stands: a Failed one is open until it is replaced or abandoned; others have none. */
function caseOf({ batch, retriedBy, replacedBy }: BatchView): string {
  if (batch.status !== 'Failed') return '-';
  if (replacedBy) return `replaced by ${replacedBy}`;
  if (batch.abandonedAt) return `abandoned: ${batch.abandonedReason}`;
  return retriedBy ? `open, retried: ${retriedBy.status}` : 'open';
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
      reason: { type: 'string' },
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
        console.log(['BATCH_ID', 'ACCOUNT', 'MODE', 'STATUS', 'EVENTS', 'SUBMITTED', 'COMPLETED', 'WORKFLOW_ID', 'CASE'].join('\t'));
        for (const view of views) {
          const { batch: b, accountName } = view;
          console.log(
            [b.id, accountName, b.mode, b.status, `${b.eventCount} events`, b.submittedAt.toISOString(), b.completedAt?.toISOString() ?? '-', b.workflowId, caseOf(view)].join('\t'),
          );
        }
        return;
      }
      case 'show': {
        const { batch, accountName, retriedBy, replacedBy } = await findOne(id);
        const { request, ...rest } = batch.get({ plain: true });
        console.log(JSON.stringify({ ...rest, account: accountName, retriedBy, replacedBy, ...(values.request ? { request } : {}) }, null, 2));
        return;
      }
      case 'abandon': {
        const original = await findOne(id);
        const reason = values.reason?.trim();
        if (!reason) throw new Error(`abandon needs --reason TEXT: why the batch is given up on (it is kept with the batch).\n${USAGE}`);
        if (reason.length > MAX_REASON_LENGTH) throw new Error(`--reason is ${reason.length} characters; at most ${MAX_REASON_LENGTH}.`);
        try {
          await abandonBatch(original.batch.id, reason, null);
        } catch (error) {
          if (error instanceof AbandonRefused) throw new Error(error.message);
          throw error;
        }
        console.log(`batch ${original.batch.id} (${original.accountName}): Abandoned: ${reason}`);
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
            if (!rejectionOf(error)) throw error;
            // The workflow's failure names only the first error; the batch row holds them all.
            await batch.reload();
            const lines = ((batch.errors as BatchError[] | null) ?? []).map((e) => `  event ${e.index ?? '-'} ${e.eventId ?? ''}: ${e.code} ${e.field ?? ''}: ${e.message}`);
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
