import { attachBatchDocuments } from '../db/repositories/event-documents';
import type { AttachDocumentsOutput, BatchRef, DocumentNotAttached } from '../pipeline/contracts';
import type { ActivityDeps } from './deps';

/**
 * Step 2: DocumentIds (SPEC.md "Attaching documents"), read from the batch's stored events. The ids not
 * found are reported per event, never an error. Idempotent through the primary key.
 */
export function attachDocuments(deps: ActivityDeps) {
  const { sequelize } = deps;
  return async (input: BatchRef): Promise<AttachDocumentsOutput> => {
    const missing = await attachBatchDocuments(sequelize, input.accountId, input.batchId);
    const documentsNotAttached: Record<string, DocumentNotAttached[]> = {};
    for (const { eventId, documentId } of missing)
      (documentsNotAttached[eventId] ??= []).push({ documentId, reason: 'DocumentNotFound' });
    return { documentsNotAttached };
  };
}
