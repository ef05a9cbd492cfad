import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { TASK_QUEUE } from '../../runtime/config';
import type { processEventBatch } from '../../workflows';

describe('processEventBatch on the real dev server and the real worker', () => {
  let connection: Connection;
  let client: Client;

  beforeAll(async () => {
    connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS });
    client = new Client({ connection });
  });
  afterAll(() => connection.close());

  it('runs to completion through the worker on task queue traceability', async () => {
    const batchId = randomUUID();
    const result = await client.workflow.execute<typeof processEventBatch>('processEventBatch', {
      taskQueue: TASK_QUEUE,
      workflowId: `test-${batchId}`,
      args: [{ batchId, accountId: randomUUID(), accountName: 'workflow-test', events: [{}, {}, {}] }],
    });
    expect(result).toMatchObject({ batchId });
    const history = await client.workflow.getHandle(`test-${batchId}`).fetchHistory();
    const scheduled = history.events?.filter((e) => e.activityTaskScheduledEventAttributes).length;
    expect(scheduled).toBeGreaterThan(0);
  });
});
