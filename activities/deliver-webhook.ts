import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { Webhook } from 'standardwebhooks';
import {
  markWebhookFailing as markFailing,
  nextWebhookDelivery as nextDelivery,
  owedDelivery,
  recordWebhookAttempt,
  type NextWebhookDelivery,
  type OwedDelivery,
} from '../db/repositories/webhooks';
import { postJson } from '../platform/webhooks';
import type { DeliverWebhookInput, DeliverWebhookOutcome, MarkWebhookFailingInput } from '../domain/webhook-contracts';
import { gs1Signature } from '../domain/epcis/gs1-signature';
import type { ActivityDeps } from './deps';

/** When Temporal will try again after this attempt fails (null: the retry schedule has run out), for the attempt's row. */
function nextAttemptAt(now: number): Date | null {
  const { attempt, retryPolicy, scheduledTimestampMs, scheduleToCloseTimeoutMs } = Context.current().info;
  const initial = Number(retryPolicy?.initialInterval ?? 1000);
  const coefficient = retryPolicy?.backoffCoefficient ?? 2;
  const maximum = Number(retryPolicy?.maximumInterval ?? initial * 100);
  const at = now + Math.min(initial * coefficient ** (attempt - 1), maximum);
  return scheduleToCloseTimeoutMs && at >= scheduledTimestampMs + scheduleToCloseTimeoutMs ? null : new Date(at);
}

/** A webhook is signed the Standard Webhooks way; an EPCIS subscription's report with GS1-Signature (none without a token). */
function signedHeaders(deliveryId: string, owed: OwedDelivery): Record<string, string> {
  if (owed.signing === 'gs1') {
    return {
      'Webhook-Id': deliveryId,
      ...(owed.secret ? { 'GS1-Signature': gs1Signature(owed.secret, owed.body) } : {}),
    };
  }
  const timestamp = new Date();
  const signature = new Webhook(owed.secret).sign(deliveryId, timestamp, owed.body);
  return {
    'Webhook-Id': deliveryId,
    'Webhook-Timestamp': Math.floor(timestamp.getTime() / 1000).toString(),
    'Webhook-Signature': signature,
  };
}

/**
 * One attempt at one delivery: a Standard Webhooks POST (Webhook-Id is the delivery's id, the same on
 * every attempt, so receivers de-duplicate on it), recorded as an attempt row. Any answer but 2xx, and
 * any transport failure, is thrown for Temporal to retry on the workflow's schedule.
 */
export function deliverWebhook(deps: ActivityDeps) {
  return async ({ deliveryId }: DeliverWebhookInput): Promise<DeliverWebhookOutcome> => {
    const { sequelize, logger } = deps;
    const owed = await owedDelivery(sequelize, deliveryId);
    if (!owed) return 'NotOwed';
    const headers = signedHeaders(deliveryId, owed);
    let httpStatus: number | null = null;
    let error: string | null = null;
    try {
      ({ status: httpStatus } = await postJson(owed.url, owed.body, headers, deps.webhooks?.allowedHosts ?? []));
      if (httpStatus < 200 || httpStatus > 299) error = `the receiver answered ${httpStatus}`;
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
    const delivered = error === null;
    await recordWebhookAttempt(sequelize, deliveryId, {
      httpStatus,
      error,
      delivered,
      nextAttemptAt: delivered ? null : nextAttemptAt(Date.now()),
    });
    if (!delivered) {
      logger.info({ deliveryId, httpStatus, error }, 'webhook delivery attempt failed');
      throw ApplicationFailure.retryable(error ?? 'delivery failed', 'WebhookNotDelivered', { httpStatus });
    }
    return 'Delivered';
  };
}

export const nextWebhookDelivery =
  ({ sequelize }: ActivityDeps) =>
  (endpointId: string): Promise<NextWebhookDelivery> =>
    nextDelivery(sequelize, endpointId);

export const markWebhookFailing =
  ({ sequelize }: ActivityDeps) =>
  ({ endpointId, deliveryId, reason }: MarkWebhookFailingInput): Promise<void> =>
    markFailing(sequelize, endpointId, deliveryId, reason);
