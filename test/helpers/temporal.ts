import { Client, Connection } from '@temporalio/client';

/**
 * A client of the test stack's Temporal for the describe block it is called in: it connects on first use
 * and is closed once the block's tests are done.
 */
export function temporalClient(): Client {
  const connection = Connection.lazy({ address: process.env.TEMPORAL_ADDRESS });
  afterAll(() => connection.close());
  return new Client({ connection });
}
