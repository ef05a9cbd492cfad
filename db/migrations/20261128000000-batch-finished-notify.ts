import type { Migration } from '../migrate';

/**
 * A batch that reaches Completed or Failed is announced on channel batch_finished (its id), when the
 * update commits: an API process waiting on that batch's sync call answers from the row at once,
 * without waiting for the workflow to close and Temporal to tell it (db/batch-finished.ts).
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    CREATE FUNCTION notify_batch_finished() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('batch_finished', NEW.id::text);
      RETURN NULL;
    END $$;
    CREATE TRIGGER batches_finished AFTER UPDATE OF status ON batches
      FOR EACH ROW WHEN (NEW.status IN ('Completed', 'Failed') AND OLD.status IS DISTINCT FROM NEW.status)
      EXECUTE FUNCTION notify_batch_finished();
  `);
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('DROP TRIGGER batches_finished ON batches; DROP FUNCTION notify_batch_finished()');
};
