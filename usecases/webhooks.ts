/**
 * Registering where an account's notifications go: a webhook endpoint (batch and recall events), its
 * deletion and a delivery sent again. Each endpoint's deliveries are its Temporal workflow's
 * (workflows/deliver-webhooks.ts), woken after every change it must see. Typed outcomes, no HTTP.
 */
import type { Client } from '@temporalio/client';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Sequelize } from 'sequelize';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  findWebhookDelivery,
  findWebhookEndpoint,
  redeliverWebhook as storeRedelivery,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
  type WebhookEventType,
} from '../db/repositories/webhooks';
import type { ScheduleRanges } from '../domain/epcis/subscription-schedule';
import type { Config } from '../platform/config';
import { createSubscriptionSchedule, deleteSubscriptionSchedule } from '../platform/epcis-subscriptions';
import { destinationProblem, wakeWebhookEndpoint } from '../platform/webhooks';

/** What registering an endpoint (a webhook or an EPCIS subscription) needs; Temporal's parts are ports. */
export interface EndpointServices {
  sequelize: Sequelize;
  /** WEBHOOK_ALLOWED_HOSTS: hosts allowed although not https or not public. */
  allowedHosts: readonly string[];
  /** Starts the endpoint's delivery workflow, or tells the running one to read its rows again. */
  wake(endpointId: string): Promise<void>;
  /** Creates a scheduled subscription's Temporal Schedule; deletes it (null ranges). */
  schedule(subscriptionId: string, ranges: ScheduleRanges | null): Promise<void>;
}

/** The services as the API runs them: on the service's Temporal. */
export const endpointServices = (deps: {
  sequelize: Sequelize;
  temporal: Client;
  config: Config;
}): EndpointServices => {
  const { sequelize, temporal, config } = deps;
  return {
    sequelize,
    allowedHosts: config.webhookAllowedHosts,
    wake: (id) => wakeWebhookEndpoint(temporal, config.taskQueue, id, { retrySeconds: config.webhookRetrySeconds }),
    schedule: (id, ranges) =>
      ranges
        ? createSubscriptionSchedule(temporal, config.taskQueue, id, ranges, config.webhookRetrySeconds)
        : deleteSubscriptionSchedule(temporal, id),
  };
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The account's endpoint `id` (null: none, another account's, or deleted). */
export const findEndpoint = (services: EndpointServices, accountId: string, id: string) =>
  UUID.test(id) ? findWebhookEndpoint(services.sequelize, accountId, id) : Promise.resolve(null);

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
export async function deleteWebhook(
  services: EndpointServices,
  accountId: string,
  id: string,
): Promise<WebhookEndpointRow | null> {
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
