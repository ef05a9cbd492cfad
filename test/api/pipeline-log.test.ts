import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAccount } from '../factories/accounts';
import { commission, instance, uid } from '../factories/events';
import { client } from '../helpers/http';

type Line = Record<string, unknown>;

/** The JSON lines the stack's processes wrote (test/helpers/stack.ts sends them all to stack.log). */
const logLines = (): Line[] =>
  fs
    .readFileSync(path.join(process.env.STACK_DIR!, 'stack.log'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line);

describe('pipeline log lines', () => {
  it('carry the batch id, the workflow id and the account, from the workflow and from its activities', async () => {
    const account = await createAccount('logs');
    const response = await client(account.key).post('/Integration/Events', {
      Events: [commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', uid('LOT'), 5))],
    });
    expect(response.status).toBe(200);
    let lines: Line[] = [];
    for (let i = 0; i < 20 && !lines.some((l) => l.msg === 'ledger appended'); i++) {
      await sleep(100);
      lines = logLines().filter((l) => l.account === account.name);
    }
    const persisted = lines.find((l) => l.msg === 'events persisted');
    expect(persisted).toMatchObject({
      account: account.name,
      events: 1,
      activity: 'persistEvents',
      workflowId: expect.stringMatching(/^batch-/),
    });
    const { batchId: persistedBatch, workflowId } = persisted as { batchId: string; workflowId: string };
    for (const msg of ['batch received', 'ledger appended', 'batch completed']) {
      expect(lines.find((l) => l.msg === msg)).toMatchObject({ batchId: persistedBatch, workflowId });
    }
  });
});
