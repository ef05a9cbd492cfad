import type { Migration } from '../migrate';

/*
 * Document bytes move from one bytea per document to fixed-size chunks (CHUNK_BYTES in
 * db/repositories/documents.ts), written in the same transaction as the metadata row. A single 20 MiB
 * bytea parameter has to exist in the API's memory at once (twice, with the protocol buffer); chunks
 * keep an upload's memory bounded by the chunk size, and a crash still leaves either the row with all
 * its chunks or nothing.
 * STORAGE EXTERNAL: the allowed formats are mostly compressed already; TOAST compression would only
 * spend CPU.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    CREATE TABLE document_chunks (
      account_id   uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      document_id  uuid NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
      seq          integer NOT NULL CHECK (seq >= 0),
      data         bytea NOT NULL,
      PRIMARY KEY (document_id, seq)
    );
    ALTER TABLE document_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
    ALTER TABLE documents DROP COLUMN content;
  `);
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    ALTER TABLE documents ADD COLUMN content bytea;
    UPDATE documents d SET content = coalesce(
      (SELECT string_agg(c.data, ''::bytea ORDER BY c.seq) FROM document_chunks c WHERE c.document_id = d.id), ''::bytea);
    ALTER TABLE documents ALTER COLUMN content SET NOT NULL;
    DROP TABLE document_chunks;
  `);
};
