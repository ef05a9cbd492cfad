import { Client, Connection } from '@temporalio/client';
import { sql } from './db';

/**
 * A client of the test stack's Temporal for the describe block it is called in: it connects on first use
 * and is closed once the block's tests are done.
 */
export function temporalClient(): Client {
  const connection = Connection.lazy({ address: process.env.TEMPORAL_ADDRESS });
  afterAll(() => connection.close());
  return new Client({ connection });
}

/**
 * The history of batch `batchId`'s workflow, read once the run has closed: a sync answer leaves on the
 * batch row's last commit, before the workflow task that records the last step's marker completes.
 */
export async function closedBatchHistory(temporal: Client, batchId: string) {
  const { rows } = await sql().query<{ workflow_id: string }>('SELECT workflow_id FROM batches WHERE id = $1', [
    batchId,
  ]);
  const handle = temporal.workflow.getHandle(rows[0].workflow_id);
  await handle.result();
  return (await handle.fetchHistory()).events ?? [];
}
