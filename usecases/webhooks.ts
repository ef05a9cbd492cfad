/**
 * Registering where an account's notifications go: a webhook endpoint, or a subscription to a named EPCIS
 * query (an endpoint signed GS1's way); deleting them; a delivery sent again. Each endpoint's deliveries are
 * its Temporal workflow's (workflows/deliver-webhooks.ts), woken after every change it must see.
 */
import type { Client } from '@temporalio/client';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Sequelize } from 'sequelize';
import type { EpcFormat } from '../domain/epcis/identifiers';
import {
  createSubscription,
  deleteNamedQuery,
  findNamedQuery,
  filterFromJson,
  findSubscription,
  type NamedQueryRow,
  type SubscriptionRow,
} from '../db/repositories/epcis-queries';
import { countEpcisEvents } from '../db/queries/epcis-events';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  findWebhookDelivery,
  findWebhookEndpoint,
  redeliverWebhook as storeRedelivery,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
} from '../db/repositories/webhooks';
import type { WebhookEventType } from '../domain/webhook-contracts';
import { scheduleRanges, type ScheduleRanges } from '../domain/epcis/subscription-schedule';
import type { CreateSubscriptionInput } from '../contract/epcis/queries-schema';
import type { Config } from '../platform/config';
import { createSubscriptionSchedule, deleteSubscriptionSchedule } from '../platform/epcis-subscriptions';
import { destinationProblem, wakeWebhookEndpoint } from '../platform/webhooks';
import { isUuid } from '../db/sql';

/** What registering an endpoint (a webhook or an EPCIS subscription) needs; Temporal's parts are ports. */
export interface EndpointServices {
  sequelize: Sequelize;
  allowedHosts: readonly string[];
  /** Starts the endpoint's delivery workflow, or tells the running one to read its rows again. */
  wake(endpointId: string): Promise<void>;
  /** Creates a scheduled subscription's Temporal Schedule; deletes it (null ranges). */
  schedule(subscriptionId: string, ranges: ScheduleRanges | null): Promise<void>;
  /** The most events a stream's first reports (what matched since its initialRecordTime) carry. */
  initialReportEvents: number;
}

/** A stream's first reports are made as it subscribes, in that request: a history longer than this is read page by page instead. */
export const INITIAL_REPORT_EVENTS = 10_000;

/**
 * Why a stream's first reports, of what `named` matched since `since`, would be more than `most` events (a
 * webhook stream's or a WebSocket's: both are made as it subscribes, the socket's in the API process).
 */
export async function initialReportProblem(
  sequelize: Sequelize,
  accountId: string,
  named: Pick<NamedQueryRow, 'name' | 'filter'>,
  since: Date,
  most = INITIAL_REPORT_EVENTS,
): Promise<Issue | undefined> {
  const filter = { ...filterFromJson(named.filter), accountId, GE_recordTime: since, limit: 0 };
  if ((await countEpcisEvents(sequelize, filter, most)) <= most) return undefined;
  return {
    pointer: '/initialRecordTime',
    message: `More than ${most} events match the query since initialRecordTime, more than a stream's first report carries: read them with GET /epcis/queries/${named.name}/events?GE_recordTime=…, page by page, and subscribe from a later time.`,
  };
}

type ServiceDeps = { sequelize: Sequelize; temporal: Client; config: Config };

export const endpointServices = ({ sequelize, temporal, config }: ServiceDeps): EndpointServices => ({
  sequelize,
  allowedHosts: config.webhookAllowedHosts,
  initialReportEvents: INITIAL_REPORT_EVENTS,
  wake: (id) => wakeWebhookEndpoint(temporal, config.taskQueue, id, { retrySeconds: config.webhookRetrySeconds }),
  schedule: (id, ranges) =>
    // Bounded: it runs inside the subscription's transaction, holding its connection meanwhile.
    temporal.withDeadline(Date.now() + SCHEDULE_DEADLINE_MS, () =>
      ranges
        ? createSubscriptionSchedule(temporal, config.taskQueue, id, ranges, config.webhookRetrySeconds)
        : deleteSubscriptionSchedule(temporal, id),
    ),
});

const SCHEDULE_DEADLINE_MS = 10_000;

/** The account's endpoint `id` (null: none, another account's, or deleted). */
export const findEndpoint = (services: EndpointServices, accountId: string, id: string) =>
  isUuid(id) ? findWebhookEndpoint(services.sequelize, accountId, id) : Promise.resolve(null);

export type RegisterWebhookOutcome =
  { kind: 'unusableUrl'; problem: string } | { kind: 'registered'; endpoint: WebhookEndpointRow; secret: string };

/** A new endpoint, with the signing secret shown this once. */
export async function registerWebhook(
  services: EndpointServices,
  input: { accountId: string; url: string; events: WebhookEventType[] },
): Promise<RegisterWebhookOutcome> {
  const unusable = await destinationProblem(input.url, services.allowedHosts);
  if (unusable) return { kind: 'unusableUrl', problem: `Url ${unusable}` };
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const endpoint = await createWebhookEndpoint(services.sequelize, { id: randomUUID(), ...input, secret });
  // Its delivery workflow runs from now on: should a later commit's wake-up be lost (the API dying
  // between commit and signal), the workflow's idle timer still finds what is owed.
  await services.wake(endpoint.id);
  return { kind: 'registered', endpoint, secret };
}

/** Deletes the endpoint, cancelling what it was still owed; its workflow reads the deletion and ends. */
export async function deleteWebhook(services: EndpointServices, accountId: string, id: string) {
  const endpoint = await findEndpoint(services, accountId, id);
  if (!endpoint) return null;
  await deleteWebhookEndpoint(services.sequelize, accountId, endpoint.id);
  await services.wake(endpoint.id);
  return endpoint;
}

export type RedeliverOutcome =
  { kind: 'unknownEndpoint' } | { kind: 'unknownDelivery' } | { kind: 'redelivered'; delivery: WebhookDeliveryRow };

/** A delivery owed again, whatever became of it. */
export async function redeliverWebhook(
  services: EndpointServices,
  accountId: string,
  endpointId: string,
  deliveryId: string,
): Promise<RedeliverOutcome> {
  const { sequelize } = services;
  const endpoint = await findEndpoint(services, accountId, endpointId);
  if (!endpoint) return { kind: 'unknownEndpoint' };
  if (!(await findWebhookDelivery(sequelize, endpoint.id, deliveryId))) return { kind: 'unknownDelivery' };
  await storeRedelivery(sequelize, endpoint.id, deliveryId);
  await services.wake(endpoint.id);
  return { kind: 'redelivered', delivery: (await findWebhookDelivery(sequelize, endpoint.id, deliveryId))! };
}

type Refusal =
  `epcis-${'stream-or-schedule' | 'report-if-empty-needs-schedule' | 'invalid-schedule' | 'invalid-dest' | 'invalid-initial-record-time' | 'initial-report-too-large'}`;
type Issue = { pointer: string; message: string };
export type SubscribeOutcome =
  | { kind: 'unknownQuery' }
  | { kind: 'refused'; code: Refusal; issues: Issue[] }
  | { kind: 'subscribed'; subscription: SubscriptionRow };

const refused = (code: Refusal, ...issues: Issue[]): SubscribeOutcome => ({ kind: 'refused', code, issues });

/**
 * Stores the subscription and, for a scheduled one, creates its Schedule before the commit: without it
 * the subscription would never report, so a Schedule that cannot be created stores nothing, and a
 * subscription that is not stored leaves no Schedule.
 */
export async function subscribe(
  services: EndpointServices,
  request: { accountId: string; queryName: string; epcFormat: EpcFormat; input: CreateSubscriptionInput },
): Promise<SubscribeOutcome> {
  const { accountId, input } = request;
  const named = await findNamedQuery(services.sequelize, accountId, request.queryName);
  if (!named) return { kind: 'unknownQuery' };
  if ((input.stream === true) === (input.schedule !== undefined))
    return refused('epcis-stream-or-schedule', {
      pointer: '/stream',
      message: 'Send stream: true, or a schedule, not both.',
    });
  // A stream reports the batches that store matching events, never an empty one: refused, not ignored, as over a WebSocket.
  if (input.stream === true && input.reportIfEmpty === true)
    return refused('epcis-report-if-empty-needs-schedule', {
      pointer: '/reportIfEmpty',
      message: 'reportIfEmpty applies to scheduled subscriptions.',
    });
  const ranges = input.schedule ? scheduleRanges(input.schedule) : undefined;
  if (ranges && 'issues' in ranges)
    return refused(
      'epcis-invalid-schedule',
      ...Object.entries(ranges.issues).map(([field, message]) => ({ pointer: `/${field.replace('.', '/')}`, message })),
    );
  const unusable = await destinationProblem(input.dest, services.allowedHosts);
  if (unusable) return refused('epcis-invalid-dest', { pointer: '/dest', message: `dest ${unusable}` });
  const initialRecordTime = input.initialRecordTime ? new Date(input.initialRecordTime) : null;
  if (initialRecordTime && Number.isNaN(initialRecordTime.getTime()))
    return refused('epcis-invalid-initial-record-time', {
      pointer: '/initialRecordTime',
      message: 'initialRecordTime is not valid.',
    });
  if (input.stream === true && initialRecordTime) {
    const problem = await initialReportProblem(
      services.sequelize,
      accountId,
      named,
      initialRecordTime,
      services.initialReportEvents,
    );
    if (problem) return refused('epcis-initial-report-too-large', problem);
  }
  const id = randomUUID();
  const subscription = await createSubscription(
    services.sequelize,
    {
      id,
      accountId,
      queryName: named.name,
      dest: input.dest,
      signatureToken: input.signatureToken,
      stream: input.stream === true,
      schedule: input.schedule ?? null,
      reportIfEmpty: input.reportIfEmpty ?? false,
      initialRecordTime,
      epcFormat: request.epcFormat,
    },
    async () => {
      if (ranges) await services.schedule(id, ranges.ranges);
    },
  ).catch(async (error: unknown) => {
    // The Schedule may exist although its call, or the COMMIT after it, failed (a deadline that passed once
    // the server had made it): without the subscription it reports nothing, so it is deleted. A COMMIT
    // can also fail on the way back after PostgreSQL made it: then the stored subscription keeps its
    // Schedule. Where neither can be told (the database unreachable), the Schedule stays: its runs find
    // no subscription row and owe nothing.
    if (ranges && !(await findSubscription(services.sequelize, accountId, named.name, id)))
      await services.schedule(id, null);
    throw error;
  });
  // Its delivery workflow runs from now on, so a lost wake-up is caught by the workflow's idle timer.
  await services.wake(id);
  return { kind: 'subscribed', subscription };
}

/** After the rows are gone: the schedule is deleted and the delivery workflow woken to see it is over. */
async function endSubscription(services: EndpointServices, id: string): Promise<void> {
  await services.schedule(id, null);
  await services.wake(id);
}

/** Ends one subscription of the account (found by its query: findSubscription). */
export async function unsubscribe(services: EndpointServices, accountId: string, id: string): Promise<void> {
  await deleteWebhookEndpoint(services.sequelize, accountId, id);
  await endSubscription(services, id);
}

/** Deletes a named query and ends its subscriptions (false: the account has no query of that name). */
export async function deleteQuery(services: EndpointServices, accountId: string, name: string): Promise<boolean> {
  const ended = await deleteNamedQuery(services.sequelize, accountId, name);
  if (!ended) return false;
  for (const id of ended) await endSubscription(services, id);
  return true;
}
