import { randomUUID } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { followUpRecall } from '../../activities/follow-up-recall';
import { acknowledgeRecall, createRecall, receivedNotice, type RecallStrategy } from '../../db/repositories/recalls';
import type { RecallConsignee } from '../../db/queries/recall-reach';
import type { RecallFollowUpOutcome } from '../../domain/recall-contracts';
import { createAccount, type TestAccount } from '../factories/accounts';
import { buildProduct } from '../factories/master-data-rows';
import { activityDeps, models } from '../helpers/db';

/**
 * One pass of a recall's follow-up (the activity, in a MockActivityEnvironment, on PostgreSQL): when the
 * next one is due. The workflow waits that long; null is "no reminder is owed", an hour's idle wait.
 */
describe('followUpRecall', () => {
  let issuer: TestAccount;
  let consignee: TestAccount;
  let productId: string;
  const strategy: RecallStrategy = {
    depth: 'Wholesale',
    checkLevel: 'A',
    checkPercent: 100,
    remindEverySeconds: 3600,
    overdueAfterReminders: 3,
  };
  const pass = (recallId: string) =>
    new MockActivityEnvironment().run(followUpRecall(activityDeps()), recallId) as Promise<RecallFollowUpOutcome>;
  const issue = async (consignees: RecallConsignee[]) => {
    const id = randomUUID();
    await createRecall(
      models(),
      { id, issuerAccountId: issuer.id, productId, lotSerial: 'LOT-1', reason: 'test' },
      strategy,
      consignees,
      () => ({}),
    );
    return id;
  };
  const toConsignee = (): RecallConsignee => ({
    accountId: consignee.id,
    accountName: consignee.name,
    viaAccountId: issuer.id,
    receivedLots: ['LOT-1'],
    notice: { recalled: [], lots: [], holdings: [] },
    sources: [],
    shipped: [],
  });

  beforeAll(async () => {
    [issuer, consignee] = await Promise.all([createAccount('follow-up-issuer'), createAccount('follow-up-consignee')]);
    productId = (await buildProduct(issuer.id)).id;
  });

  it('owes the unanswered consignee its reminder in EverySeconds', async () => {
    const followed = await pass(await issue([toConsignee()]));
    expect(followed).toMatchObject({ closed: false, reminded: [], overdue: [] });
    expect(followed.nextDueSeconds).toBeGreaterThan(3500);
    expect(followed.nextDueSeconds).toBeLessThanOrEqual(3600);
  });

  it('owes nothing when the lot reached no other account', async () => {
    expect(await pass(await issue([]))).toMatchObject({ closed: false, reminded: [], nextDueSeconds: null });
  });

  it('owes nothing once every consignee has answered', async () => {
    const id = await issue([toConsignee()]);
    const notice = await receivedNotice(models(), consignee.id, id);
    await acknowledgeRecall(models(), notice!, { quantityOnHand: 0, action: 'none', lots: null }, () => ({}));
    expect(await pass(id)).toMatchObject({ closed: false, reminded: [], nextDueSeconds: null });
  });
});
