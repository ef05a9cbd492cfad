import type { Sequelize } from 'sequelize';
import { queryOf } from '../sql';

/**
 * The DocumentIds each stored event of the batch names, matched ignoring case within the account; the
 * matches are attached and the rest returned, in the order the events and their ids were sent.
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
  SELECT event_id AS "eventId", document_id AS "documentId" FROM wanted WHERE found IS NULL ORDER BY seq, ord`;

/** Attaches the documents the batch's events name; returns the ids no document of the account has. Idempotent through the primary key. */
export async function attachBatchDocuments(
  sequelize: Sequelize,
  accountId: string,
  batchId: string,
): Promise<{ eventId: string; documentId: string }[]> {
  return queryOf(sequelize)(ATTACH, [accountId, batchId]);
}
