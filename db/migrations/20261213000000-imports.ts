import type { Migration } from '../migrate';

/**
 * Spreadsheet imports (POST /Integration/Imports). The file is kept in chunks, as documents are, so the
 * import's workflow reads it on whichever worker runs it, and a crash leaves the row with all its chunks
 * or nothing. `columns` are the header's columns as the upload read them (from the schemas of that
 * version), so the workflow builds the records the upload checked. Each chunk of at most 1,000 records
 * becomes one batch (import_batches), with the row of each record and list element, so the batch's
 * errors are shown on the rows and columns they came from.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    CREATE TABLE imports (
      id               uuid PRIMARY KEY,
      seq              bigserial NOT NULL UNIQUE,
      account_id       uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      kind             text NOT NULL,
      format           text NOT NULL CHECK (format IN ('csv', 'xlsx')),
      file_name        text NOT NULL,
      size_bytes       integer NOT NULL,
      idempotency_key  text,
      request_hash     text,
      workflow_id      text NOT NULL UNIQUE,
      columns          jsonb NOT NULL,
      rows_read        integer NOT NULL DEFAULT 0,
      refused          boolean NOT NULL DEFAULT false,
      errors           jsonb,
      request_id       text,
      submitted_at     timestamptz NOT NULL DEFAULT now(),
      split_at         timestamptz,
      UNIQUE (account_id, idempotency_key)
    );
    CREATE TABLE import_chunks (
      import_id  uuid NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
      seq        integer NOT NULL CHECK (seq >= 0),
      data       bytea NOT NULL,
      PRIMARY KEY (import_id, seq)
    );
    ALTER TABLE import_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
    CREATE TABLE import_batches (
      import_id   uuid NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
      seq         integer NOT NULL,
      batch_id    uuid REFERENCES batches(id),
      first_row   integer NOT NULL,
      last_row    integer NOT NULL,
      provenance  jsonb NOT NULL,
      -- A chunk of locations or products is stored by the activity itself, in one transaction: no batch,
      -- its outcome here (Completed with its record count, or Failed with its row errors).
      status      text CHECK (status IN ('Completed', 'Failed')),
      records     integer,
      errors      jsonb,
      CHECK ((batch_id IS NULL) = (status IS NOT NULL)),
      PRIMARY KEY (import_id, seq)
    );
    CREATE INDEX imports_account_seq ON imports (account_id, seq DESC);
  `);
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('DROP TABLE import_batches; DROP TABLE import_chunks; DROP TABLE imports;');
};
