/** Input of the per-endpoint delivery workflow (`webhook-<endpointId>`): references only, what is owed is in PostgreSQL. */
export interface DeliverWebhooksInput {
  endpointId: string;
  /** How long one delivery is retried before the endpoint is marked failing. */
  retrySeconds: number;
}

export interface DeliverWebhookInput {
  endpointId: string;
  deliveryId: string;
}

export type DeliverWebhookOutcome = 'Delivered' | 'NotOwed';

export interface MarkWebhookFailingInput {
  endpointId: string;
  deliveryId: string;
  reason: string;
}
