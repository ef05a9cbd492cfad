/**
 * Subscribing to an account's named EPCIS query (GS1's REST binding), and ending subscriptions. A
 * subscription is a webhook endpoint signed GS1's way: its reports are owed when a batch completes
 * (stream) or by its Temporal Schedule, and delivered by the endpoint's workflow. Typed outcomes, no HTTP.
 */
import { randomUUID } from 'node:crypto';
import type { EpcFormat } from '../db/queries/epcis-documents';
import {
  createSubscription,
  deleteNamedQuery,
  findNamedQuery,
  type SubscriptionRow,
} from '../db/repositories/epcis-queries';
import { deleteWebhookEndpoint } from '../db/repositories/webhooks';
import { scheduleRanges, type ScheduleField } from '../domain/epcis/subscription-schedule';
import { destinationProblem } from '../platform/webhooks';
import type { EndpointServices } from './webhooks';

/** A subscription as asked for, past the request's schema. */
export interface CreateSubscriptionInput {
  dest: string;
  signatureToken?: string;
  stream?: true;
  schedule?: Partial<Record<ScheduleField, string>>;
  reportIfEmpty?: boolean;
  initialRecordTime?: string;
}

/** What is wrong at one JSON pointer of the request. */
export interface SubscriptionIssue {
  pointer: string;
  message: string;
}

export type SubscribeOutcome =
  | { kind: 'unknownQuery' }
  | {
      kind: 'refused';
      code:
        | 'epcis-stream-or-schedule'
        | 'epcis-invalid-schedule'
        | 'epcis-invalid-dest'
        | 'epcis-invalid-initial-record-time';
      issues: SubscriptionIssue[];
    }
  | { kind: 'subscribed'; subscription: SubscriptionRow };

const refused = (
  code: Extract<SubscribeOutcome, { kind: 'refused' }>['code'],
  issues: SubscriptionIssue[],
): SubscribeOutcome => ({ kind: 'refused', code, issues });

/**
 * Stores the subscription and, for a scheduled one, creates its Schedule before the commit: without it
 * the subscription would never report, so a Schedule that cannot be created stores nothing.
 */
export async function subscribe(
  services: EndpointServices,
  request: { accountId: string; queryName: string; epcFormat: EpcFormat; input: CreateSubscriptionInput },
): Promise<SubscribeOutcome> {
  const { accountId, input } = request;
  const named = await findNamedQuery(services.sequelize, accountId, request.queryName);
  if (!named) return { kind: 'unknownQuery' };
  if ((input.stream === true) === (input.schedule !== undefined))
    return refused('epcis-stream-or-schedule', [
      { pointer: '/stream', message: 'Send stream: true, or a schedule, not both.' },
    ]);
  const ranges = input.schedule ? scheduleRanges(input.schedule) : undefined;
  if (ranges && 'issues' in ranges)
    return refused(
      'epcis-invalid-schedule',
      Object.entries(ranges.issues).map(([field, message]) => ({ pointer: `/${field.replace('.', '/')}`, message })),
    );
  const unusable = await destinationProblem(input.dest, services.allowedHosts);
  if (unusable) return refused('epcis-invalid-dest', [{ pointer: '/dest', message: `dest ${unusable}` }]);
  const initialRecordTime = input.initialRecordTime ? new Date(input.initialRecordTime) : null;
  if (initialRecordTime && Number.isNaN(initialRecordTime.getTime()))
    return refused('epcis-invalid-initial-record-time', [
      { pointer: '/initialRecordTime', message: 'initialRecordTime is not valid.' },
    ]);
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
  );
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
