import { queryOf } from '../db/sql';
import type { AttachDocumentsOutput, BatchRef, DocumentNotAttached } from '../workflows/contracts';
import type { ActivityDeps } from './deps';

/**
 * The DocumentIds each stored event of the batch names, matched ignoring case within the account; the
 * matches are attached and the rest reported, in the order the events and their ids were sent.
 */
const ATTACH = `
  WITH wanted AS (
    SELECT e.id AS event_id, e.seq, w.document_id, w.ord, d.id AS found
      FROM events e
     CROSS JOIN LATERAL jsonb_array_elements_text(
             CASE WHEN jsonb_typeof(e.payload -> 'DocumentIds') = 'array' THEN e.payload -> 'DocumentIds' ELSE '[]'::jsonb END
           ) WITH ORDINALITY AS w(document_id, ord)
      LEFT JOIN documents d ON d.account_id = $1 AND lower(d.document_id) = lower(w.document_id)
     WHERE e.batch_id = $2
  ), attached AS (
    INSERT INTO event_documents (account_id, event_id, document_id)
    SELECT $1, event_id, found FROM wanted WHERE found IS NOT NULL
    ON CONFLICT DO NOTHING
  )
  SELECT event_id, document_id FROM wanted WHERE found IS NULL ORDER BY seq, ord`;

/**
 * Step 2: DocumentIds (SPEC.md "Attaching documents"), read from the batch's stored events. The ids not
 * found are reported per event, never an error. Idempotent through the primary key.
 */
export function attachDocuments(deps: ActivityDeps) {
  const { sequelize } = deps;
  return async (input: BatchRef): Promise<AttachDocumentsOutput> => {
    const rows = await queryOf(sequelize)<{ event_id: string; document_id: string }>(ATTACH, [input.accountId, input.batchId]);
    const documentsNotAttached: Record<string, DocumentNotAttached[]> = {};
    for (const row of rows) (documentsNotAttached[row.event_id] ??= []).push({ documentId: row.document_id, reason: 'DocumentNotFound' });
    return { documentsNotAttached };
  };
}
