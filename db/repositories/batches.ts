import { randomUUID } from 'node:crypto';
import {
  Op,
  UniqueConstraintError,
  type Sequelize,
  type Transaction,
  type WhereAttributeHash,
  type WhereOptions,
} from 'sequelize';
import { canonicalJson, sha256Hex } from '../../domain/hashing';
import { Account, Batch, type BatchMode, type BatchStatus } from '../models';
import type { PageRequest } from '../page';
import { isUuid, queryOf } from '../sql';

export interface NewBatch {
  accountId: string;
  mode: BatchMode;
  request: unknown;
  eventCount: number;
  idempotencyKey?: string;
  retryOf?: string;
  requestId?: string;
}

/** With a key, the workflow id is the account's key; without one, the batch's own id. */
export const batchWorkflowId = (accountId: string, batchId: string, idempotencyKey: string | undefined): string =>
  idempotencyKey ? keyedWorkflowId(accountId, idempotencyKey) : `batch-${batchId}`;
const keyedWorkflowId = (accountId: string, idempotencyKey: string): string => `batch-${accountId}-${idempotencyKey}`;

const requestHashOf = (request: unknown): string => sha256Hex(canonicalJson(request));

/** The first request with this Idempotency-Key had another body: the key cannot stand for both. */
export class IdempotencyKeyReused extends Error {
  constructor(
    readonly key: string,
    readonly batchId: string,
  ) {
    super(
      `Idempotency-Key ${key} was first used with a different request body (batch ${batchId}); send a new key for a new batch.`,
    );
  }
}

/** What a new batch is: every way a batch is made (a request, a capture, an import's chunk, a retry) says this much. */
interface NewBatchRow extends Omit<NewBatch, 'requestId'> {
  requestId?: string | null;
  /** The request as stored, as JSON text (by default its JSON.stringify): written as it is, never parsed again. */
  requestText?: string;
  requestHash: string | null;
}

/** The one place a batch is made: a new Accepted batches row, its id its own, in the caller's transaction. */
async function insertBatch(
  row: NewBatchRow,
  transaction?: Transaction,
  sequelize: Sequelize = Batch.sequelize!,
): Promise<Batch> {
  const id = randomUUID();
  const columns = {
    accountId: row.accountId,
    // With an Idempotency-Key, the account's key (batchWorkflowId).
    idempotencyKey: row.idempotencyKey ?? null,
    mode: row.mode,
    eventCount: row.eventCount,
    request: row.request,
    requestHash: row.requestHash,
    retryOf: row.retryOf ?? null,
    requestId: row.requestId ?? null,
  };
  const workflowId = batchWorkflowId(row.accountId, id, row.idempotencyKey);
  const [inserted] = await queryOf(sequelize, transaction)<{ seq: string; submitted_at: Date }>(
    `INSERT INTO batches (id, account_id, workflow_id, idempotency_key, mode, status, event_count, request, request_id,
                          request_hash, retry_of, submitted_at)
     VALUES ($1, $2, $3, $4, $5, 'Accepted', $6, $7::jsonb, $8, $9, $10, now())
     RETURNING seq, submitted_at`,
    [
      id,
      columns.accountId,
      workflowId,
      columns.idempotencyKey,
      columns.mode,
      columns.eventCount,
      row.requestText ?? JSON.stringify(row.request),
      columns.requestId,
      columns.requestHash,
      columns.retryOf,
    ],
  );
  return Batch.build(
    {
      ...columns,
      id,
      seq: inserted.seq,
      workflowId,
      status: 'Accepted',
      result: null,
      errors: null,
      warnings: null,
      submittedAt: inserted.submitted_at,
      startedAt: null,
      completedAt: null,
      abandonedAt: null,
      abandonedReason: null,
      abandonedByKeyId: null,
    },
    { isNewRecord: false },
  );
}

/**
 * The batches row for a submission: a new one, or with an Idempotency-Key the row of the first request
 * with that key (concurrent first requests end with the one row: the unique workflow id decides). The
 * key is bound to its request: the same key with another body is IdempotencyKeyReused.
 */
export async function findOrCreateBatch(
  submission: NewBatch,
  /** What else is stored with the batch (a capture's originals) commits with it; only for submissions without a key. */
  transaction?: Transaction,
): Promise<{ batch: Batch; created: boolean }> {
  const workflowId = submission.idempotencyKey && keyedWorkflowId(submission.accountId, submission.idempotencyKey);
  const replayOf = (existing: Batch) => {
    if (existing.requestHash && existing.requestHash !== requestHashOf(submission.request))
      throw new IdempotencyKeyReused(submission.idempotencyKey!, existing.id);
    return { batch: existing, created: false };
  };
  if (workflowId) {
    const existing = await Batch.findOne({ where: { workflowId } });
    if (existing) return replayOf(existing);
  }
  try {
    const batch = await insertBatch(
      // Only a key needs the binding; hashing a batch of several MB costs time on every submission.
      { ...submission, requestHash: submission.idempotencyKey ? requestHashOf(submission.request) : null },
      transaction,
    );
    return { batch, created: true };
  } catch (error) {
    if (!(error instanceof UniqueConstraintError) || !workflowId) throw error;
    const existing = await Batch.findOne({ where: { workflowId } });
    if (!existing) throw error;
    return replayOf(existing);
  }
}

/**
 * A new Accepted batch for one chunk of an import, in its upload's transaction. Its key (the import's and
 * the chunk's) is new with the import, so nothing is looked up first. The key is bound to the hash of the
 * request's text as stored, not to the canonical form a client's body is hashed in: for 1,000 events the
 * ORM's create and the canonical hash cost several times the INSERT itself, and the upload stores ten such
 * chunks while its client waits. A client sending this key to POST /Integration/Events is refused
 * (IdempotencyKeyReused) instead of getting the chunk's answer for events it never stored.
 */
export async function insertChunkBatch(
  sequelize: Sequelize,
  chunk: { accountId: string; idempotencyKey: string; events: readonly unknown[]; requestId: string | null },
  transaction: Transaction,
): Promise<string> {
  const request = { Events: chunk.events };
  const requestText = JSON.stringify(request);
  const batch = await insertBatch(
    {
      accountId: chunk.accountId,
      idempotencyKey: chunk.idempotencyKey,
      mode: 'async',
      eventCount: chunk.events.length,
      request,
      requestText,
      requestHash: sha256Hex(requestText),
      requestId: chunk.requestId,
    },
    transaction,
    sequelize,
  );
  return batch.id;
}

/** Whose batches a caller reaches: one account's, or (a support key, the CLI) every account's. */
export type BatchScope = { accountId: string } | 'all';

const scoped = (scope: BatchScope, where: WhereAttributeHash<Batch> = {}): WhereOptions<Batch> =>
  scope === 'all' ? where : { ...where, accountId: scope.accountId };

/** The newest retry of a batch: an integrator polling the original learns how its retry went. */
export interface RetryRef {
  batchId: string;
  status: BatchStatus;
}

const retryRef = (batch: Batch): RetryRef => ({ batchId: batch.id, status: batch.status });

/** Support gave up on a Failed batch: it is kept, and no longer waits for anyone. */
export interface Abandonment {
  reason: string;
  at: Date;
  /** The support key that did it; null when it was done with the CLI (`npm run batch -- abandon`). */
  keyId: string | null;
}

/** The import a never-run batch belongs to, which failed before its batches were started. */
export interface FailedImport {
  importId: string;
  reason: string;
}

/**
 * A batch with what its row alone cannot say: its account's name, its newest retry, and (a Failed one)
 * the batch that stored its events since, which makes it replaced, or the failed import that never ran it.
 */
export interface BatchView {
  batch: Batch;
  accountName: string;
  retriedBy: RetryRef | null;
  replacedBy: string | null;
  abandoned: Abandonment | null;
  failedImport: FailedImport | null;
}

/**
 * SQL, true when every event of the Failed batch `b` is stored in its account, by whichever batch (its
 * retry, a retry of that, a new batch with the same event ids): a failed batch stores nothing, so its
 * events are in the events table only if another batch stored them. Read from the events table each
 * time, so it cannot go stale; one index probe per event id, stopping at the first one missing. A batch
 * with an event without an id (refused for it) is never replaced.
 */
export const ALL_EVENTS_STORED = (b: string): string => `(
  jsonb_array_length(${b}.failed_event_ids) = ${b}.event_count AND ${b}.event_count > 0
  AND NOT EXISTS (
    SELECT 1 FROM jsonb_array_elements_text(${b}.failed_event_ids) AS ids(id)
     WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.account_id = ${b}.account_id AND e.external_event_id = ids.id)))`;

/** For each replaced Failed batch of `ids`: the newest batch that stored one of its events. */
export async function replacementsOf(ids: readonly string[], transaction?: Transaction): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await queryOf(Batch.sequelize!, transaction)<{ id: string; replaced_by: string }>(
    `SELECT b.id,
            (SELECT e.batch_id FROM jsonb_array_elements_text(b.failed_event_ids) AS ids(id)
               JOIN events e ON e.account_id = b.account_id AND e.external_event_id = ids.id
              ORDER BY e.seq DESC LIMIT 1) AS replaced_by
       FROM batches b
      WHERE b.id = ANY($1::uuid[]) AND b.status = 'Failed' AND ${ALL_EVENTS_STORED('b')}`,
    [[...ids]],
  );
  return new Map(rows.map((r) => [r.id, r.replaced_by]));
}

/**
 * SQL, the rows (id, failure) of the failed import the batch `b` belongs to, by the import's record of its
 * chunks or by the chunk's Idempotency-Key (as recordImportFailed finds them). An import fails only before
 * its batches are started, so such a batch never ran: its case is closed from the start.
 */
export const FAILED_IMPORT_OF = (b: string): string => `
  SELECT i.id, i.failure FROM imports i
   WHERE i.account_id = ${b}.account_id AND i.failed_at IS NOT NULL
     AND (i.id IN (SELECT import_id FROM import_batches WHERE batch_id = ${b}.id)
          OR ${b}.idempotency_key LIKE 'import-' || i.id || '-%')`;

/** For each Failed batch of `ids` that a failed import never ran: that import and its failure. */
export async function failedImportsOf(
  ids: readonly string[],
  transaction?: Transaction,
): Promise<Map<string, FailedImport>> {
  if (!ids.length) return new Map();
  const rows = await queryOf(Batch.sequelize!, transaction)<{ id: string; import_id: string; failure: string }>(
    `SELECT b.id, i.id AS import_id, i.failure
       FROM batches b CROSS JOIN LATERAL (${FAILED_IMPORT_OF('b')} LIMIT 1) AS i
      WHERE b.id = ANY($1::uuid[]) AND b.status = 'Failed'`,
    [[...ids]],
  );
  return new Map(rows.map((r) => [r.id, { importId: r.import_id, reason: r.failure }]));
}

const failedImportOf = async (id: string, transaction: Transaction): Promise<FailedImport | undefined> =>
  (await failedImportsOf([id], transaction)).get(id);

/** Why a batch a failed import never ran is closed: what a retry's and an abandon's refusals begin with. */
const notRunText = (id: string, { importId, reason }: FailedImport): string =>
  `Batch ${id} is a batch of import ${importId}, which failed before its batches were started (${reason.replace(/\.$/, '')}).`;

const abandonmentOf = (batch: Batch): Abandonment | null =>
  batch.abandonedAt
    ? { reason: batch.abandonedReason ?? '', at: batch.abandonedAt, keyId: batch.abandonedByKeyId ?? null }
    : null;

export interface BatchFilter {
  status?: BatchStatus;
  /** Submitted at or after. */
  since?: Date;
  /** An account name; only a scope of 'all' can name another account than its own. */
  accountName?: string;
}

export function findAccountBatch(accountId: string, id: string): Promise<Batch | null> {
  return Batch.findOne({ where: { id, accountId } });
}

/** The newest retry of each of `ids` (the highest seq among the batches whose retry_of names it). */
export async function retriesOf(ids: readonly string[]): Promise<Map<string, RetryRef>> {
  if (!ids.length) return new Map();
  const retries = await Batch.findAll({
    where: { retryOf: { [Op.in]: [...ids] } },
    attributes: ['id', 'seq', 'retryOf', 'status'],
    order: [['seq', 'ASC']],
  });
  // Ascending, so the newest retry of each batch is written last.
  return new Map(retries.map((r) => [r.retryOf!, retryRef(r)]));
}

async function viewsOf(batches: Batch[]): Promise<BatchView[]> {
  const accountIds = [...new Set(batches.map((b) => b.accountId))];
  const accounts = await Account.findAll({ where: { id: { [Op.in]: accountIds } }, attributes: ['id', 'name'] });
  const names = new Map(accounts.map((a) => [a.id, a.name]));
  const retries = await retriesOf(batches.map((b) => b.id));
  const failed = batches.filter((b) => b.status === 'Failed').map((b) => b.id);
  const [replacements, failedImports] = await Promise.all([replacementsOf(failed), failedImportsOf(failed)]);
  return batches.map((batch) => ({
    batch,
    accountName: names.get(batch.accountId) ?? '',
    retriedBy: retries.get(batch.id) ?? null,
    replacedBy: replacements.get(batch.id) ?? null,
    abandoned: abandonmentOf(batch),
    failedImport: failedImports.get(batch.id) ?? null,
  }));
}

/** Newest first. The stored request is left out: it can be megabytes, and a list never shows it. */
export async function listBatches(
  scope: BatchScope,
  filter: BatchFilter,
  page: PageRequest,
): Promise<{ total: number; views: BatchView[] }> {
  const where: WhereOptions<Batch> = {};
  if (filter.status) where.status = filter.status;
  if (filter.since) where.submittedAt = { [Op.gte]: filter.since };
  if (filter.accountName !== undefined) {
    const account = await Account.findOne({ where: { name: filter.accountName } });
    // An unknown account has no batches; saying so is not an error.
    if (!account) return { total: 0, views: [] };
    where.accountId = account.id;
  }
  const { count, rows } = await Batch.findAndCountAll({
    where: scoped(scope, where),
    attributes: { exclude: ['request', 'result'] },
    order: [['seq', 'DESC']],
    limit: page.pageSize,
    offset: page.offset,
  });
  return { total: count, views: await viewsOf(rows) };
}

/** The batch named by its id (or, for the CLI, by its workflow id) within the scope; null for a name of neither form. */
const namedBatch = (scope: BatchScope, id: string): WhereOptions<Batch> | null =>
  isUuid(id) ? scoped(scope, { id }) : id.startsWith('batch-') ? scoped(scope, { workflowId: id }) : null;

/** One batch by id (or, for the CLI, by workflow id) within the scope, or null. */
export async function findBatch(scope: BatchScope, id: string): Promise<BatchView | null> {
  const where = namedBatch(scope, id);
  const batch = where && (await Batch.findOne({ where }));
  return batch ? (await viewsOf([batch]))[0] : null;
}

/**
 * The id of the batch a name stands for, as findBatch reads names: the name itself when it is an id
 * (whether such a batch is in the scope is for the read that follows), else that of the batch in the
 * scope whose workflow id it is.
 */
export async function batchIdOf(scope: BatchScope, name: string): Promise<string | null> {
  return isUuid(name) ? name : ((await findBatchStatus(scope, name))?.id ?? null);
}

/** A batch's id and status alone, named as findBatch names it: what a wait on the batch reads. */
export async function findBatchStatus(scope: BatchScope, id: string): Promise<Pick<Batch, 'id' | 'status'> | null> {
  const where = namedBatch(scope, id);
  return where && Batch.findOne({ where, attributes: ['id', 'status'] });
}

/** Why a batch cannot be retried; the API answers 409 with the message, the CLI prints it. */
export class RetryRefused extends Error {
  constructor(
    message: string,
    readonly batchId: string,
    readonly retry: RetryRef | null = null,
    readonly replacedBy: string | null = null,
  ) {
    super(message);
  }
}

const abandonedText = (batch: Batch): string =>
  `Batch ${batch.id} was abandoned at ${batch.abandonedAt!.toISOString()}${batch.abandonedByKeyId ? ` (key ${batch.abandonedByKeyId})` : ' (CLI)'}: ${batch.abandonedReason}`;

/**
 * Stores the retry of a Failed batch: a new batch (mode 'retry', retryOf the original) with the
 * original's stored events. The original's row is locked while this decides, so two retries sent at
 * once end with one new batch and one refusal. Its workflow is started by the caller
 * (batches/batch-workflow.ts), as for every batch.
 */
export async function createRetry(originalId: string, requestId: string | null): Promise<Batch> {
  const sequelize = Batch.sequelize!;
  return sequelize.transaction(async (transaction) => {
    const original = await Batch.findByPk(originalId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!original) throw new RetryRefused(`No batch ${originalId}.`, originalId);
    const { id } = original;
    const refused = (message: string, retry: RetryRef | null = null, replacedBy: string | null = null) =>
      new RetryRefused(message, id, retry, replacedBy);
    if (original.status === 'Accepted')
      throw refused(
        `Batch ${id} is Accepted: it is stored and waits for its workflow, which the reconciler starts on its own. Nothing to retry.`,
      );
    if (original.status !== 'Failed')
      throw refused(`Batch ${id} is ${original.status}; only Failed batches are retried.`);
    const retries = await Batch.findAll({ where: { retryOf: id }, order: [['seq', 'DESC']], transaction });
    const done = retries.find((r) => r.status === 'Completed');
    const replacedBy = (await replacementsOf([id], transaction)).get(id) ?? null;
    if (done)
      throw refused(`Batch ${id} was already retried successfully as batch ${done.id}.`, retryRef(done), replacedBy);
    const going = retries.find((r) => r.status === 'Accepted' || r.status === 'Running');
    if (going)
      throw refused(`Batch ${id} has a retry under way: batch ${going.id} (${going.status}).`, retryRef(going));
    const newest = retries[0] ? retryRef(retries[0]) : null;
    if (replacedBy)
      throw refused(
        `Batch ${id} was replaced: its events are stored already, by batch ${replacedBy}. Nothing to retry (a retry would fail on DuplicateEventId).`,
        newest,
        replacedBy,
      );
    const failedImport = await failedImportOf(id, transaction);
    if (failedImport)
      throw refused(
        `${notRunText(id, failedImport)} ` +
          'Nothing of the import is stored, and this batch alone is not retried: that would store part of it. Upload the file again (POST /Integration/Imports).',
        newest,
      );
    if (original.abandonedAt)
      throw refused(
        `${abandonedText(original)}. An abandoned batch is not retried; send its events as a new batch.`,
        newest,
      );

    const request = original.request as { Events: unknown[] };
    // A new batch with its own id: the activities are idempotent per batch, and the original's failure
    // stored nothing, so running the same events again cannot store them twice.
    return insertBatch(
      {
        accountId: original.accountId,
        mode: 'retry',
        eventCount: request.Events.length,
        request,
        requestHash: null,
        retryOf: id,
        requestId,
      },
      transaction,
    );
  });
}

const refusalAnsweredText = (batch: Batch): string =>
  `Batch ${batch.id} was refused in the answer to the call that sent it (${batch.refusalAnsweredAt!.toISOString()}): its caller has every error.`;

/**
 * The sync call that sent this Failed batch is being answered its refusal (a 400 with every error): the
 * caller knows and sends it again fixed, so the batch is no open case and not counted as failed-open.
 * The first answer's time is kept (an Idempotency-Key replay answers the same).
 */
export async function recordRefusalAnswered(batchId: string): Promise<void> {
  await Batch.update(
    { refusalAnsweredAt: new Date() },
    { where: { id: batchId, status: 'Failed', refusalAnsweredAt: null } },
  );
}

/** Why a batch cannot be abandoned; the API answers 409 with the message, the CLI prints it. */
export class AbandonRefused extends Error {
  constructor(
    message: string,
    readonly batchId: string,
    readonly replacedBy: string | null = null,
  ) {
    super(message);
  }
}

/**
 * Marks a Failed batch Abandoned: support gave up on it (the sender will not send it again, or it was a
 * test). It is kept as it is, with the reason and the key; it no longer counts as failed-open and is not
 * retried. Locks the row as createRetry does, so an abandon and a retry sent at once do not both win.
 */
export async function abandonBatch(batchId: string, reason: string, keyId: string | null): Promise<Batch> {
  return Batch.sequelize!.transaction(async (transaction) => {
    const batch = await Batch.findByPk(batchId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!batch) throw new AbandonRefused(`No batch ${batchId}.`, batchId);
    const { id } = batch;
    const refused = (message: string, replacedBy: string | null = null) => new AbandonRefused(message, id, replacedBy);
    if (batch.status !== 'Failed') throw refused(`Batch ${id} is ${batch.status}; only a Failed batch is abandoned.`);
    if (batch.abandonedAt) throw refused(`${abandonedText(batch)}. It stays abandoned with that reason.`);
    const going = await Batch.findOne({
      where: { retryOf: id, status: { [Op.in]: ['Accepted', 'Running'] } },
      transaction,
    });
    if (going)
      throw refused(`Batch ${id} has a retry under way: batch ${going.id} (${going.status}). Wait for its outcome.`);
    const failedImport = await failedImportOf(id, transaction);
    if (failedImport)
      throw refused(`${notRunText(id, failedImport)} It is closed already (Not run): nothing to abandon.`);
    if (batch.refusalAnsweredAt)
      throw refused(`${refusalAnsweredText(batch)} It is closed already (Answered): nothing to abandon.`);
    const replacedBy = (await replacementsOf([id], transaction)).get(id) ?? null;
    if (replacedBy)
      throw refused(
        `Batch ${id} was replaced: its events are stored already, by batch ${replacedBy}. Nothing to abandon.`,
        replacedBy,
      );
    return batch.update({ abandonedAt: new Date(), abandonedReason: reason, abandonedByKeyId: keyId }, { transaction });
  });
}
