import { eventIdOf } from '../domain/hashing';
import type { AttachDocumentsInput, AttachDocumentsOutput, DocumentNotAttached } from '../workflows/contracts';
import type { ActivityDeps } from './deps';
import { inTransaction } from './sql';

/**
 * Step 2: DocumentIds (SPEC.md "Attaching documents"). Ids are matched ignoring case within the account;
 * the ones not found are reported per event, never an error. Idempotent through the primary key.
 */
export function attachDocuments(deps: ActivityDeps) {
  return async (input: AttachDocumentsInput): Promise<AttachDocumentsOutput> => {
    const requests = input.documentIds.map((documentIds, index) => ({ eventId: eventIdOf(input.batchId, index), documentIds }));
    const pairs = requests.flatMap((r) => (r.documentIds ?? []).map((documentId) => ({ eventId: r.eventId, documentId })));
    if (!pairs.length) return { documentsNotAttached: requests.map(() => null) };
    const { rows } = await inTransaction(deps.sequelize, (client) =>
      client.query<{ event_id: string; document_id: string }>(
        `WITH wanted AS (
           SELECT w.event_id, w.document_id, w.ord, d.id AS found
             FROM unnest($2::uuid[], $3::text[]) WITH ORDINALITY AS w(event_id, document_id, ord)
             LEFT JOIN documents d ON d.account_id = $1 AND lower(d.document_id) = lower(w.document_id)
         ), attached AS (
           INSERT INTO event_documents (account_id, event_id, document_id)
           SELECT $1, event_id, found FROM wanted WHERE found IS NOT NULL
           ON CONFLICT DO NOTHING
         )
         SELECT event_id, document_id FROM wanted WHERE found IS NULL ORDER BY ord`,
        [input.accountId, pairs.map((p) => p.eventId), pairs.map((p) => p.documentId)],
      ),
    );
    const missing = new Map<string, DocumentNotAttached[]>();
    for (const row of rows) {
      let list = missing.get(row.event_id);
      if (!list) missing.set(row.event_id, (list = []));
      list.push({ documentId: row.document_id, reason: 'DocumentNotFound' });
    }
    return { documentsNotAttached: requests.map((r) => missing.get(r.eventId) ?? null) };
  };
}
