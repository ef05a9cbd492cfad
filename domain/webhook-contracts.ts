/** What an endpoint can subscribe to: a batch's result and the recall notices. */
export const WEBHOOK_EVENT_TYPES = [
  'batch.completed',
  'batch.failed',
  'recall.received',
  'recall.acknowledged',
  'recall.reminder',
  'recall.overdue',
  'recall.closed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Input of the per-endpoint delivery workflow (`webhook-<endpointId>`): references only, what is owed is in PostgreSQL. */
export interface DeliverWebhooksInput {
  endpointId: string;
  /** How long one delivery is retried before the endpoint is marked failing. */
  retrySeconds: number;
}

/**
 * The delivery workflow's signature, for the code below the workflows that starts it by its name
 * (`deliverWebhooks`) and cannot import it; test/workflows/started-by-name.test.ts holds the two together.
 */
export type DeliverWebhooksWorkflow = (input: DeliverWebhooksInput) => Promise<void>;

export interface DeliverWebhookInput {
  endpointId: string;
  deliveryId: string;
}

export type DeliverWebhookOutcome = 'Delivered' | 'NotOwed';

export interface MarkWebhookFailingInput extends DeliverWebhookInput {
  reason: string;
}

/** Input of a scheduled subscription's run (reportEpcisSubscription), started by its Temporal Schedule. */
export interface ReportEpcisSubscriptionInput {
  subscriptionId: string;
  /** Passed on to the delivery workflow the run wakes. */
  retrySeconds: number;
}

/** reportEpcisSubscription's signature, as its schedule starts it by name (see DeliverWebhooksWorkflow). */
export type ReportEpcisSubscriptionWorkflow = (input: ReportEpcisSubscriptionInput) => Promise<void>;
