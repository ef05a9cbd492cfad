import type { BatchView } from '../../../db/repositories/batches';
import type { BatchError } from '../../../domain/batch-errors';
import type { Config } from '../../../platform/config';

export const batchUrl = (batchId: string): string => `/Integration/Batches/${batchId}`;

/** The Temporal UI a batch's workflow link points into (config.temporalUiUrl and .temporalNamespace). */
export type LinkSettings = Pick<Config, 'temporalUiUrl' | 'temporalNamespace'>;

/** Where the UI shows one workflow (the same path for the dev server's UI and a deployed one). */
const workflowUrlOf = ({ temporalUiUrl, temporalNamespace }: LinkSettings, workflowId: string): string | null =>
  temporalUiUrl
    ? `${temporalUiUrl}/namespaces/${encodeURIComponent(temporalNamespace)}/workflows/${encodeURIComponent(workflowId)}`
    : null;

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
    workflowUrl: workflowUrlOf(links, batch.workflowId),
  };
};

/** `request`: the batch's stored request (its captured events' originals in place), when asked for. */
export const batchDetailBody = (view: BatchView, links: LinkSettings, request?: { Events: unknown[] }) => ({
  ...batchSummaryBody(view, links),
  errors: (view.batch.errors as BatchError[] | null) ?? null,
  ...(request ? { request } : {}),
});
