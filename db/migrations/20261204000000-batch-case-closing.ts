import type { Migration } from '../migrate';

/**
 * A failed batch's case can be closed. Replaced: every event it carried is stored by another batch,
 * computed from the events table, never a flag; failed_event_ids keeps the event ids of a Failed batch
 * beside it so the check (and the failed-open gauge, on every scrape) does not read the stored request,
 * which can be megabytes. It is generated from the request, so it cannot disagree with it, and only for
 * Failed batches, where it is needed. Abandoned: support gave up on it, with the reason and the key.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    ALTER TABLE batches
      ADD COLUMN failed_event_ids jsonb
        GENERATED ALWAYS AS (CASE WHEN status = 'Failed' THEN jsonb_path_query_array(request, '$.Events[*].Id') END) STORED,
      ADD COLUMN abandoned_at timestamptz,
      ADD COLUMN abandoned_reason text,
      ADD COLUMN abandoned_by_key_id uuid REFERENCES api_keys(id),
      ADD CONSTRAINT batches_abandoned_failed CHECK (abandoned_at IS NULL OR (status = 'Failed' AND abandoned_reason IS NOT NULL))`);
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    ALTER TABLE batches DROP CONSTRAINT batches_abandoned_failed,
      DROP COLUMN abandoned_by_key_id, DROP COLUMN abandoned_reason, DROP COLUMN abandoned_at, DROP COLUMN failed_event_ids`);
};
