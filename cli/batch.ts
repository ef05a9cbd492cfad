import type { BatchStatus } from '../db/models';
import { findBatch, listBatches, type BatchView } from '../db/repositories/batches';
import { rejectionLines } from '../batches/rejection';
import { ABANDON_REASON_MAX_LENGTH } from '../domain/batch-errors';
import { abandonBatch, storeRetry } from '../batches/retry';
import { runBatch } from '../batches/submit';
import { loadConfig } from '../platform/config';
import { createLogger } from '../platform/logger';
import { RECONCILER_WORKFLOW_ID } from '../batches/reconciler';
import { connectTemporalClient } from '../platform/temporal-client';
import { commandLine, run, serviceAddress, wholeNumber } from './database';
import { requestWithEpcisOriginals } from '../db/repositories/epcis-originals';

const USAGE = `usage:
  npm run --silent batch -- list [--status Accepted|Running|Completed|Failed] [--account NAME] [--limit N]
  npm run --silent batch -- show BATCH_ID [--request]     the batch as JSON (--request adds the events sent)
  npm run --silent batch -- retry BATCH_ID                 runs a failed batch's events again as a new batch
  npm run --silent batch -- abandon BATCH_ID --reason TEXT  marks a failed batch Abandoned: kept, no longer open

The same operations are GET /Integration/Batches, GET /Integration/Batches/{id},
POST /Integration/Batches/{id}/retry and .../abandon with a support key, and the page at /support.`;

const STATUSES: readonly BatchStatus[] = ['Accepted', 'Running', 'Completed', 'Failed'];

/** The CLI runs on the database host with the operator's rights: every account's batches, like a support key. */
async function findOne(id: string | undefined): Promise<BatchView> {
  if (!id) throw new Error(`a batch id is required.\n${USAGE}`);
  const view = await findBatch('all', id);
  if (!view) throw new Error(`No batch ${id}.`);
  return view;
}

/**
 * Where a batch's case stands: a Failed one is open until it is replaced or abandoned, or closed from the
 * start when its import failed before running it or its sync call was answered the refusal; others have none.
 */
function caseOf({ batch, retriedBy, replacedBy, failedImport }: BatchView): string {
  if (batch.status !== 'Failed') return '-';
  if (replacedBy) return `replaced by ${replacedBy}`;
  if (failedImport) return `not run: import ${failedImport.importId} failed`;
  if (batch.abandonedAt) return `abandoned: ${batch.abandonedReason}`;
  if (batch.refusalAnsweredAt) return "answered: refused in its call's 400";
  return retriedBy ? `open, retried: ${retriedBy.status}` : 'open';
}

export const batch = commandLine(
  USAGE,
  {
    status: { type: 'string' },
    account: { type: 'string' },
    limit: { type: 'string' },
    request: { type: 'boolean' },
    reason: { type: 'string' },
  },
  {
    list: async ({ values, print }) => {
      let status: BatchStatus | undefined;
      if (values.status) {
        status = STATUSES.find((st) => st.toLowerCase() === values.status!.toLowerCase());
        if (!status) throw new Error(`--status must be one of ${STATUSES.join(', ')}.`);
      }
      const pageSize = values.limit === undefined ? 50 : wholeNumber('--limit', values.limit, 1, USAGE);
      const { views } = await listBatches(
        'all',
        { status, accountName: values.account },
        { pageNumber: 1, pageSize, offset: 0 },
      );
      print(
        ['BATCH_ID', 'ACCOUNT', 'MODE', 'STATUS', 'EVENTS', 'SUBMITTED', 'COMPLETED', 'WORKFLOW_ID', 'CASE'].join('\t'),
      );
      for (const view of views) {
        const { batch: b, accountName } = view;
        print(
          [
            b.id,
            accountName,
            b.mode,
            b.status,
            `${b.eventCount} events`,
            b.submittedAt.toISOString(),
            b.completedAt?.toISOString() ?? '-',
            b.workflowId,
            caseOf(view),
          ].join('\t'),
        );
      }
    },
    show: async ({ sequelize, args: [id], values, print }) => {
      const { batch, accountName, retriedBy, replacedBy } = await findOne(id);
      const { request: stored, ...rest } = batch.get({ plain: true });
      const request = values.request ? await requestWithEpcisOriginals(sequelize, stored) : undefined;
      print(
        JSON.stringify(
          { ...rest, account: accountName, retriedBy, replacedBy, ...(request ? { request } : {}) },
          null,
          2,
        ),
      );
    },
    abandon: async ({ args: [id], values, print }) => {
      const original = await findOne(id);
      const reason = values.reason?.trim();
      if (!reason)
        throw new Error(
          `abandon needs --reason TEXT: why the batch is given up on (it is kept with the batch).\n${USAGE}`,
        );
      if (reason.length > ABANDON_REASON_MAX_LENGTH)
        throw new Error(`--reason is ${reason.length} characters; at most ${ABANDON_REASON_MAX_LENGTH}.`);
      const abandoned = await abandonBatch(original.batch.id, reason, null);
      if (abandoned.kind === 'refused') throw new Error(abandoned.refusal.message);
      print(`batch ${original.batch.id} (${original.accountName}): Abandoned: ${reason}`);
    },
    retry: async ({ args: [id], print }) => {
      const original = await findOne(id);
      const config = loadConfig();
      const stored = await storeRetry(original.batch.id, null);
      if (stored.kind === 'refused') {
        const { message } = stored.refusal;
        // The reconciler's name helps whoever reads this at a shell: it is what will start an Accepted batch.
        throw new Error(
          original.batch.status === 'Accepted'
            ? `${message} (the ${RECONCILER_WORKFLOW_ID} workflow, after ${config.reconcileAfterSeconds} s)`
            : message,
        );
      }
      const { retry } = stored;
      const temporal = await connectTemporalClient(serviceAddress('temporalAddress'), config.temporalNamespace);
      try {
        const logger = createLogger(config.logLevel, 'batch');
        const outcome = await runBatch({ temporal, config, logger }, retry, {
          accountName: original.accountName,
          wait: 'untilDone',
        });
        const name = `batch ${retry.id} (retry of ${original.batch.id})`;
        switch (outcome.kind) {
          case 'completed':
            print(`${name}: Completed, ${outcome.result.length} events created`);
            return;
          case 'rejected':
            throw new Error([`${name}: Failed again`, ...rejectionLines(outcome.errors)].join('\n'));
          case 'pipelineFailed':
            throw new Error(
              `${name}: the pipeline could not process it; nothing was stored. ${outcome.errors[0]?.message ?? ''}`,
            );
          case 'notStarted':
            throw new Error(
              `${name}: stored, but its workflow could not be started; the reconciler starts it within ${outcome.startsWithinSeconds} s.`,
            );
          case 'pending':
            throw new Error(`${name}: still under way; follow it with: npm run --silent batch -- show ${retry.id}`);
        }
      } finally {
        await temporal.connection.close();
      }
    },
  },
);

if (require.main === module) run(() => batch(process.argv.slice(2)));
