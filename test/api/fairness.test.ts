import { createAccount, type TestAccount } from '../factories/accounts';
import { commission, instance, uid } from '../factories/events';
import { client } from '../helpers/http';
import { temporalClient } from '../helpers/temporal';

/**
 * Fair use in the pipeline: every batch's workflow carries Temporal's Priority, its mode's priority and
 * its account as fairness key (Task Queue Fairness, on in npm start's dev server), so the matcher
 * dispatches a sync call before queued async batches and accounts' tasks in turn.
 */
describe("batches' workflows carry their priority and their account as fairness key", () => {
  let account: TestAccount;
  const temporal = temporalClient();
  beforeAll(async () => {
    account = await createAccount('fair');
  });

  const events = () => [
    commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', uid('LOT'), 10)),
  ];

  it('a sync call runs at priority 1, an async batch at 3, both keyed by the account', async () => {
    const sync = await client(account.key).post('/Integration/Events', { Events: events() });
    expect(sync.status).toBe(200);
    const syncId: string = sync.body.batchId;
    const async = await client(account.key).post('/Integration/Events/async', { Events: events() });
    expect(async.status).toBe(202);

    const priorityOf = async (batchId: string) =>
      (await temporal.workflow.getHandle(`batch-${batchId}`).describe()).priority;
    expect(await priorityOf(syncId)).toMatchObject({ priorityKey: 1, fairnessKey: account.id });
    expect(await priorityOf(async.body.batchId)).toMatchObject({ priorityKey: 3, fairnessKey: account.id });
  });
});
