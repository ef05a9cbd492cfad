import type { Sequelize, Transaction } from 'sequelize';
import type { EpcFormat } from '../../domain/epcis/identifiers';
import type { ScheduleField } from '../../domain/epcis/subscription-schedule';
import { epcisQueryDocument } from '../queries/epcis-documents';
import {
  findEpcisEvents,
  TIME_COMPARISONS,
  TIME_FIELDS,
  type EpcisEventFilter,
  type EpcisEventPage,
  type TimeComparison,
} from '../queries/epcis-events';
import { executeOf, isUuid, microsOf, queryOf, rowOf, timestampOfMicros } from '../sql';
import { deleteWebhookEndpoint, NEW_DELIVERY_ID } from './webhooks';

/** A named query's filter as stored: the parameters checked when it was named, without account or page. */
export type StoredFilter = Omit<
  EpcisEventFilter,
  'accountId' | 'limit' | 'afterSeq' | 'afterKey' | 'order' | 'batchIds'
>;

/** Every time bound a filter may hold: GT_ and LE_ as well as the standard's GE_ and LT_. */
const TIMES = (Object.keys(TIME_COMPARISONS) as TimeComparison[]).flatMap((comparison) =>
  TIME_FIELDS.map((field) => `${comparison}_${field}` as const),
);

/** JSON keeps a filter's times as strings: they are Dates again here. */
export function filterFromJson(json: Record<string, unknown>): StoredFilter {
  const filter = { ...json } as StoredFilter & Record<string, unknown>;
  for (const key of TIMES) if (typeof json[key] === 'string') filter[key] = new Date(json[key] as string);
  return filter;
}

export interface NamedQueryRow {
  name: string;
  query: Record<string, unknown>;
  filter: Record<string, unknown>;
  created_at: Date;
}

const NAMED_QUERIES = `SELECT name, query, filter, created_at, ${microsOf('created_at')} AS place FROM epcis_queries WHERE account_id = $1`;

/** The query as stored; null when the account already has a query of that name. */
export async function createNamedQuery(
  sequelize: Sequelize,
  accountId: string,
  name: string,
  query: unknown,
  filter: StoredFilter,
): Promise<NamedQueryRow | null> {
  return rowOf(sequelize)<NamedQueryRow>(
    'INSERT INTO epcis_queries (account_id, name, query, filter) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING name, query, filter, created_at',
    [accountId, name, JSON.stringify(query), JSON.stringify(filter)],
  );
}

/** A listed row's place in its listing: its created_at in microseconds since 1970 (a Date would lose them), and its key. */
export interface ListPlace {
  at: string;
  key: string;
}
/** SQL and its binds from $n: after `from` in the order of (created_at, key); true without one. */
const after = (createdAt: string, key: string, from: ListPlace | undefined, n: number): [string, string[]] =>
  from ? [`(${createdAt}, ${key}) > (${timestampOfMicros(`$${n}`)}, $${n + 1})`, [from.at, from.key]] : ['true', []];

/** A page of the account's queries after `from`, oldest first. */
export async function listNamedQueries(
  sequelize: Sequelize,
  accountId: string,
  from: ListPlace | undefined,
  limit: number,
): Promise<(NamedQueryRow & { place: string })[]> {
  const [later, binds] = after('created_at', 'name', from, 3);
  return queryOf(sequelize)<NamedQueryRow & { place: string }>(
    `${NAMED_QUERIES} AND ${later} ORDER BY created_at, name LIMIT $2`,
    [accountId, limit, ...binds],
  );
}

export async function findNamedQuery(
  sequelize: Sequelize,
  accountId: string,
  name: string,
): Promise<NamedQueryRow | null> {
  return rowOf(sequelize)<NamedQueryRow>(`${NAMED_QUERIES} AND name = $2`, [accountId, name]);
}

/** Deletes the query and its subscriptions; answers the ids of the subscriptions it ended (their schedules go too). */
export async function deleteNamedQuery(
  sequelize: Sequelize,
  accountId: string,
  name: string,
): Promise<string[] | null> {
  return sequelize.transaction(async (transaction) => {
    const subscriptions = await queryOf(sequelize, transaction)<{ id: string }>(
      'SELECT id FROM epcis_subscriptions WHERE account_id = $1 AND query_name = $2',
      [accountId, name],
    );
    for (const { id } of subscriptions) await deleteWebhookEndpoint(sequelize, accountId, id, transaction);
    const deleted = await executeOf(sequelize, transaction)(
      'DELETE FROM epcis_queries WHERE account_id = $1 AND name = $2',
      [accountId, name],
    );
    return deleted ? subscriptions.map((s) => s.id) : null;
  });
}

export type SubscriptionSchedule = Partial<Record<ScheduleField, string>>;

export interface SubscriptionRow {
  id: string;
  query_name: string;
  dest: string;
  stream: boolean;
  schedule: SubscriptionSchedule | null;
  report_if_empty: boolean;
  initial_record_time: Date;
  epc_format: EpcFormat;
  created_at: Date;
  last_notified_at: Date | null;
  /** Its place in a listing (listSubscriptions). */
  place: string;
}

const SUBSCRIPTIONS = `SELECT s.id, s.query_name, w.url AS dest, s.stream, s.schedule, s.report_if_empty, s.initial_record_time, s.epc_format, s.created_at,
  (SELECT max(d.delivered_at) FROM webhook_deliveries d WHERE d.endpoint_id = s.id) AS last_notified_at, ${microsOf('s.created_at')} AS place
  FROM epcis_subscriptions s JOIN webhook_endpoints w ON w.id = s.id`;

/**
 * SQL: the lock that puts a subscription's creation (exclusive) and a batch's completion (shared) of the
 * account `account` in turn. Each then sees what the other committed: a batch completing while a
 * subscription is created is owed to it by one of them, never by neither.
 */
export const subscriptionsLock = (account: string, by: 'creation' | 'completion'): string =>
  `pg_advisory_xact_lock${by === 'completion' ? '_shared' : ''}(hashtextextended('subscriptions|' || ${account}, 0))`;

export async function createSubscription(
  sequelize: Sequelize,
  subscription: {
    id: string;
    accountId: string;
    queryName: string;
    dest: string;
    signatureToken: string | undefined;
    stream: boolean;
    schedule: SubscriptionSchedule | null;
    reportIfEmpty: boolean;
    initialRecordTime: Date | null;
    epcFormat: EpcFormat;
  },
  /** Run before the commit: its failure stores nothing (a scheduled subscription's Temporal Schedule). */
  beforeCommit: () => Promise<void>,
): Promise<SubscriptionRow> {
  return sequelize.transaction(async (transaction) => {
    const s = subscription;
    const execute = executeOf(sequelize, transaction);
    await execute(`SELECT ${subscriptionsLock('$1', 'creation')}`, [s.accountId]);
    await execute(
      `INSERT INTO webhook_endpoints (id, account_id, url, events, secret, signing) VALUES ($1, $2, $3, '{}', $4, 'gs1')`,
      [s.id, s.accountId, s.dest, s.signatureToken ?? ''],
    );
    await execute(
      `INSERT INTO epcis_subscriptions (id, account_id, query_name, stream, schedule, report_if_empty, initial_record_time, epc_format)
       VALUES ($1, $2, $3, $4, $5, $6, coalesce($7, clock_timestamp()), $8)`,
      [
        s.id,
        s.accountId,
        s.queryName,
        s.stream,
        s.schedule && JSON.stringify(s.schedule),
        s.reportIfEmpty,
        s.initialRecordTime,
        s.epcFormat,
      ],
    );
    if (s.schedule) {
      // The first report covers what was recorded since initialRecordTime, before the subscription too.
      await execute(
        `INSERT INTO epcis_subscription_backlog (subscription_id, batch_id)
         SELECT s.id, b.id FROM epcis_subscriptions s JOIN batches b ON b.account_id = s.account_id
          WHERE s.id = $1 AND b.status = 'Completed' AND b.completed_at >= s.initial_record_time`,
        [s.id],
      );
    } else if (s.initialRecordTime) await oweStreamBacklog(sequelize, transaction, s.id);
    const [row] = await queryOf(sequelize, transaction)<SubscriptionRow>(`${SUBSCRIPTIONS} WHERE s.id = $1`, [s.id]);
    await beforeCommit();
    return row;
  });
}

/** A page of the query's subscriptions after `from`, oldest first. */
export async function listSubscriptions(
  sequelize: Sequelize,
  accountId: string,
  queryName: string,
  from: ListPlace | undefined,
  limit: number,
): Promise<SubscriptionRow[]> {
  const [later, binds] = after('s.created_at', 's.id', from, 4);
  return queryOf(sequelize)<SubscriptionRow>(
    `${SUBSCRIPTIONS}
      WHERE s.account_id = $1 AND s.query_name = $2 AND w.deleted_at IS NULL AND ${later}
      ORDER BY s.created_at, s.id LIMIT $3`,
    [accountId, queryName, limit, ...binds],
  );
}

export async function findSubscription(
  sequelize: Sequelize,
  accountId: string,
  queryName: string,
  id: string,
): Promise<SubscriptionRow | null> {
  if (!isUuid(id)) return null;
  return rowOf(sequelize)<SubscriptionRow>(
    `${SUBSCRIPTIONS} WHERE s.account_id = $1 AND s.query_name = $2 AND s.id = $3 AND w.deleted_at IS NULL`,
    [accountId, queryName, id],
  );
}

type ReportSource = Pick<
  SubscriptionRow,
  'id' | 'query_name' | 'epc_format' | 'report_if_empty' | 'initial_record_time'
> & {
  account_id: string;
  filter: Record<string, unknown>;
};

/** The most events one report carries, as the largest page of GET /epcis/events: more go in further reports. */
const REPORT_EVENTS = 1000;

/** A subscription's report's events: in the order recorded, without a page. */
type ReportFilter = Omit<EpcisEventFilter, 'limit' | 'afterSeq' | 'order' | 'afterKey'>;

/**
 * A subscription's reports of `filter`'s events in the order recorded, REPORT_EVENTS at most each, read a
 * report at a time (a backlog since a distant initialRecordTime may hold an account's every event): none
 * when nothing matched and no empty report is wanted.
 */
async function* reportsOf(
  sequelize: Sequelize,
  source: Pick<ReportSource, 'id' | 'account_id' | 'query_name' | 'epc_format'>,
  filter: ReportFilter,
  reportIfEmpty: boolean,
) {
  const documentOf = (page: EpcisEventPage) =>
    epcisQueryDocument(sequelize, source.account_id, source.epc_format, page, {
      queryName: source.query_name,
      subscriptionID: source.id,
    });
  // An empty backlog matches nothing (not every event).
  if (filter.batchIds?.length === 0) {
    if (reportIfEmpty) yield await documentOf({ events: [], namespaces: [] });
    return;
  }
  let afterSeq: string | undefined;
  for (let first = true; ; first = false) {
    const page = await findEpcisEvents(sequelize, { ...filter, limit: REPORT_EVENTS, afterSeq });
    if (page.events.length || (first && reportIfEmpty)) yield await documentOf(page);
    if (!page.next) return;
    afterSeq = page.next.seq;
  }
}

/** Owes each of the reports of `filter`'s events: the first under `sourceKey`, the next under `sourceKey#2` and on. */
async function oweReport(
  sequelize: Sequelize,
  transaction: Transaction,
  source: ReportSource,
  sourceKey: string,
  filter: ReportFilter,
  reportIfEmpty: boolean,
): Promise<void> {
  let part = 0;
  for await (const document of reportsOf(sequelize, source, filter, reportIfEmpty)) {
    part += 1;
    await executeOf(sequelize, transaction)(
      `INSERT INTO webhook_deliveries (id, endpoint_id, type, source_key, body) VALUES (${NEW_DELIVERY_ID}, $1, 'epcis.report', $2, $3) ON CONFLICT (endpoint_id, source_key) DO NOTHING`,
      [source.id, part === 1 ? sourceKey : `${sourceKey}#${part}`, JSON.stringify(document)],
    );
  }
}

const SOURCE_COLUMNS =
  's.id, s.account_id, s.query_name, q.filter, s.epc_format, s.report_if_empty, s.initial_record_time';

/**
 * A new stream's first report, as a WebSocket stream's: what its query matches among the batches completed
 * since initialRecordTime (source key `initial`); each batch after is reported on its own.
 */
async function oweStreamBacklog(sequelize: Sequelize, transaction: Transaction, subscriptionId: string): Promise<void> {
  const query = queryOf(sequelize, transaction);
  const [source] = await query<ReportSource>(
    `SELECT ${SOURCE_COLUMNS} FROM epcis_subscriptions s
       JOIN epcis_queries q ON q.account_id = s.account_id AND q.name = s.query_name
      WHERE s.id = $1`,
    [subscriptionId],
  );
  const batchIds = (
    await query<{ id: string }>(
      `SELECT id FROM batches WHERE account_id = $1 AND status = 'Completed' AND completed_at >= $2`,
      [source.account_id, source.initial_record_time],
    )
  ).map((row) => row.id);
  if (!batchIds.length) return;
  const base = filterFromJson(source.filter);
  const filter: ReportFilter = {
    ...base,
    accountId: source.account_id,
    batchIds,
    GE_recordTime: latest(base.GE_recordTime, source.initial_record_time),
  };
  await oweReport(sequelize, transaction, source, 'initial', filter, false);
}

/** A batch (`b`) with its account's live stream subscriptions (`s`) and their endpoints (`w`). */
const STREAM_SUBSCRIPTIONS_OF_BATCH = `batches b
  JOIN epcis_subscriptions s ON s.account_id = b.account_id AND s.stream
  JOIN webhook_endpoints w ON w.id = s.id AND w.deleted_at IS NULL`;

/**
 * In the transaction that completes a batch: owes each stream subscription of the batch's account a
 * report of the batch's events that match its query (source key `batch:<id>`, like its webhooks).
 */
export async function oweStreamReports(sequelize: Sequelize, batchId: string, transaction: Transaction): Promise<void> {
  const sources = await queryOf(sequelize, transaction)<ReportSource>(
    `SELECT ${SOURCE_COLUMNS} FROM ${STREAM_SUBSCRIPTIONS_OF_BATCH}
       JOIN epcis_queries q ON q.account_id = s.account_id AND q.name = s.query_name
      WHERE b.id = $1 AND b.status = 'Completed'`,
    [batchId],
  );
  for (const source of sources) {
    const filter = {
      ...filterFromJson(source.filter),
      accountId: source.account_id,
      batchIds: [batchId],
    };
    await oweReport(sequelize, transaction, source, `batch:${batchId}`, filter, false);
  }
}

/** Whether batch $1's account has a stream subscription: completing its batches owes reports (oweStreamReports). */
export const STREAM_SUBSCRIBED = `EXISTS (SELECT 1 FROM ${STREAM_SUBSCRIPTIONS_OF_BATCH} WHERE b.id = $1)`;

/**
 * The INSERT that puts Completed batch $1 in each scheduled subscription's backlog for its next run,
 * reading the batch's row from `batches` (the table, or a statement's RETURNING).
 */
export const scheduledBacklogSql = (batches: string): string => `
  INSERT INTO epcis_subscription_backlog (subscription_id, batch_id)
  SELECT s.id, b.id FROM ${batches} b
    JOIN epcis_subscriptions s ON s.account_id = b.account_id AND s.schedule IS NOT NULL
    JOIN webhook_endpoints w ON w.id = s.id AND w.deleted_at IS NULL
   WHERE b.id = $1 AND b.status = 'Completed'
  ON CONFLICT DO NOTHING`;

/**
 * A scheduled subscription's run: owes a report of the matching events of the batches completed since
 * the last run (the first: since initialRecordTime), and empties that backlog, in one transaction.
 * `runKey` names the run, so a retried run owes its report once.
 */
export async function oweScheduledReport(
  sequelize: Sequelize,
  subscriptionId: string,
  runKey: string,
): Promise<boolean> {
  return sequelize.transaction(async (transaction) => {
    const query = queryOf(sequelize, transaction);
    const [source] = await query<ReportSource>(
      `SELECT ${SOURCE_COLUMNS} FROM epcis_subscriptions s
         JOIN webhook_endpoints w ON w.id = s.id AND w.deleted_at IS NULL
         JOIN epcis_queries q ON q.account_id = s.account_id AND q.name = s.query_name
        WHERE s.id = $1 AND s.schedule IS NOT NULL FOR UPDATE OF s`,
      [subscriptionId],
    );
    if (!source) return false;
    const [done] = await query<{ id: string }>(
      'SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 AND source_key = $2',
      [subscriptionId, runKey],
    );
    if (done) return true;
    const backlog = (
      await query<{ batch_id: string }>(
        'DELETE FROM epcis_subscription_backlog WHERE subscription_id = $1 RETURNING batch_id',
        [subscriptionId],
      )
    ).map((r) => r.batch_id);
    const base = filterFromJson(source.filter);
    const filter: ReportFilter = {
      ...base,
      accountId: source.account_id,
      batchIds: backlog,
      GE_recordTime: latest(base.GE_recordTime, source.initial_record_time),
    };
    await oweReport(sequelize, transaction, source, runKey, filter, source.report_if_empty);
    return true;
  });
}
const latest = (a: Date | undefined, b: Date): Date => (a && a > b ? a : b);

/** A WebSocket subscription of the API process (usecases/query-sockets.ts): live only, nothing of it is stored. */
export interface SocketSubscription {
  id: string;
  accountId: string;
  queryName: string;
  filter: StoredFilter;
  epcFormat: EpcFormat;
  /** Each report is sent signed under it, as a webhook subscription's is. */
  signatureToken?: string;
}

/**
 * The report a WebSocket subscription gets for batches `batchIds` (all of its account): the same
 * document a webhook subscription is owed for them (oweStreamReports, oweScheduledReport). `since`,
 * a scheduled socket's initialRecordTime, bounds the recordTime of every run as oweScheduledReport's does.
 */
export function socketReports(
  sequelize: Sequelize,
  subscription: SocketSubscription,
  batchIds: string[],
  options: { reportIfEmpty: boolean; since?: Date },
) {
  const source = {
    id: subscription.id,
    account_id: subscription.accountId,
    query_name: subscription.queryName,
    epc_format: subscription.epcFormat,
  };
  const filter: ReportFilter = {
    ...subscription.filter,
    accountId: subscription.accountId,
    batchIds,
    ...(options.since ? { GE_recordTime: latest(subscription.filter.GE_recordTime, options.since) } : {}),
  };
  return reportsOf(sequelize, source, filter, options.reportIfEmpty);
}

/** The account of batch `batchId` if it is Completed (a Failed batch stored no events to report). */
export async function accountOfCompletedBatch(sequelize: Sequelize, batchId: string): Promise<string | null> {
  const row = await rowOf(sequelize)<{ account_id: string }>(
    `SELECT account_id FROM batches WHERE id = $1 AND status = 'Completed'`,
    [batchId],
  );
  return row?.account_id ?? null;
}

/** The account's batches completed since `since`: what a subscription starting from initialRecordTime reports first. */
export async function batchesCompletedSince(sequelize: Sequelize, accountId: string, since: Date): Promise<string[]> {
  const rows = await queryOf(sequelize)<{ id: string }>(
    `SELECT id FROM batches WHERE account_id = $1 AND status = 'Completed' AND completed_at >= $2 ORDER BY completed_at`,
    [accountId, since],
  );
  return rows.map((row) => row.id);
}
