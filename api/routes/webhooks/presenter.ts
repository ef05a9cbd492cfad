import type { WebhookDeliveryRow, WebhookEndpointRow } from '../../../db/repositories/webhooks';

const iso = (time: Date | string | null): string | null => (time === null ? null : new Date(time).toISOString());

export const presentWebhookEndpoint = (row: WebhookEndpointRow) => ({
  id: row.id,
  account: row.account_name,
  url: row.url,
  events: row.events,
  status: row.failing_since ? ('Failing' as const) : ('Active' as const),
  failingSince: iso(row.failing_since),
  failingReason: row.failing_reason,
  pendingDeliveries: Number(row.pending),
  createdTime: new Date(row.created_at).toISOString(),
});

export const presentWebhookDelivery = (row: WebhookDeliveryRow) => ({
  id: row.id,
  type: row.type,
  status: row.status,
  createdTime: new Date(row.created_at).toISOString(),
  deliveredTime: iso(row.delivered_at),
  payload: JSON.parse(row.body) as unknown,
  attempts: row.attempts.map((attempt) => ({
    time: new Date(attempt.attempted_at).toISOString(),
    httpStatus: attempt.http_status,
    error: attempt.error,
    nextTry: iso(attempt.next_attempt_at),
  })),
});
