import { parseArgs } from 'node:util';
import { Op, type WhereOptions } from 'sequelize';
import { Account, Batch, type BatchStatus } from '../db/models';
import { findOrCreateBatch } from '../db/repositories/batches';
import { batchStartOf, rejectionOf, startBatchWorkflow } from '../runtime/batch-workflow';
import { loadConfig } from '../runtime/config';
import { RECONCILE_SCHEDULE_ID } from '../runtime/reconciler';
import { readLiveState } from '../runtime/state';
import { connectTemporalClient } from '../runtime/temporal-client';
import { noService, run, withDatabase } from './database';

const USAGE = `usage:
  npm run --silent batch -- list [--status Accepted|Running|Completed|Failed] [--account NAME] [--limit N]
  npm run --silent batch -- show BATCH_ID [--request]     the batch as JSON (--request adds the events sent)
  npm run --silent batch -- retry BATCH_ID                 runs a failed batch's events again as a new batch`;

const STATUSES: readonly BatchStatus[] = ['Accepted', 'Running', 'Completed', 'Failed'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function findBatch(id: string | undefined): Promise<Batch> {
  if (!id) throw new Error(`a batch id is required.\n${USAGE}`);
  const batch = UUID.test(id) ? await Batch.findByPk(id) : await Batch.findOne({ where: { workflowId: id } });
  if (!batch) throw new Error(`No batch ${id}.`);
  return batch;
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
        const where: WhereOptions<Batch> = {};
        if (values.status) {
          const status = STATUSES.find((s) => s.toLowerCase() === values.status!.toLowerCase());
          if (!status) throw new Error(`--status must be one of ${STATUSES.join(', ')}.`);
          where.status = status;
        }
        if (values.account) {
          const account = await Account.findOne({ where: { name: values.account } });
          if (!account) throw new Error(`No account named ${values.account}.`);
          where.accountId = account.id;
        }
        const limit = Number(values.limit ?? 50);
        const batches = await Batch.findAll({ where, order: [['seq', 'DESC']], limit: Number.isInteger(limit) && limit > 0 ? limit : 50 });
        const names = new Map((await Account.findAll({ where: { id: { [Op.in]: [...new Set(batches.map((b) => b.accountId))] } } })).map((a) => [a.id, a.name]));
        for (const b of batches) {
          console.log(
            [b.id, names.get(b.accountId), b.mode, b.status, `${b.eventCount} events`, b.submittedAt.toISOString(), b.completedAt?.toISOString() ?? '-', b.workflowId].join('\t'),
          );
        }
        return;
      }
      case 'show': {
        const batch = await findBatch(id);
        const account = await Account.findByPk(batch.accountId);
        const { request, ...rest } = batch.get({ plain: true });
        console.log(JSON.stringify({ ...rest, account: account?.name, ...(values.request ? { request } : {}) }, null, 2));
        return;
      }
      case 'retry': {
        const original = await findBatch(id);
        const config = loadConfig();
        if (original.status === 'Accepted') {
          throw new Error(
            `Batch ${original.id} is Accepted: it is stored and waits for its workflow, which the reconciler (the ${RECONCILE_SCHEDULE_ID} schedule) ` +
              `starts once it has waited ${config.reconcileAfterSeconds} s. Nothing to retry.`,
          );
        }
        if (original.status !== 'Failed') throw new Error(`Batch ${original.id} is ${original.status}; only Failed batches are retried.`);
        const done = await Batch.findOne({ where: { retryOf: original.id, status: 'Completed' } });
        if (done) throw new Error(`Batch ${original.id} was already retried successfully as batch ${done.id}.`);
        const account = await Account.findByPk(original.accountId);
        if (!account) throw new Error(`The account of batch ${original.id} no longer exists.`);
        const request = original.request as { Events: unknown[] };
        // A new batch with its own id: the activities are idempotent per batch, and the original's
        // failure stored nothing, so running the same events again cannot store them twice.
        const { batch } = await findOrCreateBatch({ accountId: account.id, mode: 'retry', request, eventCount: request.Events.length, retryOf: original.id });
        const temporal = await connectTemporalClient(temporalAddress(), config.temporalNamespace);
        try {
          const handle = await startBatchWorkflow(temporal, config.taskQueue, batchStartOf(batch, account.name));
          try {
            const { events } = await handle.result();
            console.log(`batch ${batch.id} (retry of ${original.id}): Completed, ${events} events created`);
          } catch (error) {
            const rejection = rejectionOf(error);
            if (!rejection) throw error;
            const lines = rejection.map((e) => `  event ${e.index ?? '-'} ${e.eventId ?? ''}: ${e.code} ${e.field ?? ''}: ${e.message}`);
            throw new Error([`batch ${batch.id} (retry of ${original.id}): Failed again`, ...lines].join('\n'));
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
