import type { BatchView } from '../../../db/repositories/batches';
import type { BatchError } from '../../../domain/batch-errors';

export const batchUrl = (batchId: string): string => `/Integration/Batches/${batchId}`;

/** Where the UI shows one workflow (the same path for the dev server's UI and a deployed one). */
export const workflowUrlOf = (
  temporalUiUrl: string | undefined,
  namespace: string,
  workflowId: string,
): string | null =>
  temporalUiUrl
    ? `${temporalUiUrl}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}`
    : null;

export interface LinkSettings {
  temporalUiUrl: string | undefined;
  temporalNamespace: string;
}

export const batchSummaryBody = (
  { batch, accountName, retriedBy, replacedBy, abandoned, failedImport }: BatchView,
  links: LinkSettings,
  now = Date.now(),
) => {
  const errors = (batch.errors as BatchError[] | null) ?? null;
  return {
    batchId: batch.id,
    idempotencyKey: batch.idempotencyKey,
    account: accountName,
    mode: batch.mode,
    status: batch.status,
    eventCount: batch.eventCount,
    submittedAt: batch.submittedAt.toISOString(),
    startedAt: batch.startedAt ? batch.startedAt.toISOString() : null,
    completedAt: batch.completedAt ? batch.completedAt.toISOString() : null,
    ageSeconds: Math.max(0, Math.floor((now - batch.submittedAt.getTime()) / 1000)),
    firstError: errors?.[0] ?? null,
    retryOf: batch.retryOf,
    retriedBy,
    replacedBy,
    abandoned: abandoned ? { reason: abandoned.reason, at: abandoned.at.toISOString(), keyId: abandoned.keyId } : null,
    failedImport,
    refusalAnswered: batch.refusalAnsweredAt ? { at: batch.refusalAnsweredAt.toISOString() } : null,
    requestId: batch.requestId,
    statusUrl: batchUrl(batch.id),
    workflowUrl: workflowUrlOf(links.temporalUiUrl, links.temporalNamespace, batch.workflowId),
  };
};

/** `request`: the batch's stored request (its captured events' originals in place), when asked for. */
export const batchDetailBody = (view: BatchView, links: LinkSettings, request?: { Events: unknown[] }) => ({
  ...batchSummaryBody(view, links),
  errors: (view.batch.errors as BatchError[] | null) ?? null,
  ...(request ? { request } : {}),
});
