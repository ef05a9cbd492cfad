import { WorkflowNotFoundError } from '@temporalio/client';
import { recallWorkflowId, type FollowRecallResult } from '../../domain/recall-contracts';
import { threeAccountChain } from '../factories/trace-chain';
import { serviceId } from '../factories/trace-events';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../platform/config';
import { followLostRecalls } from '../../usecases/recalls';
import { models, sql } from '../helpers/db';
import { client } from '../helpers/http';
import { reconcileUntil } from '../helpers/reconciler';
import { temporalClient } from '../helpers/temporal';

type Chain = Awaited<ReturnType<typeof threeAccountChain>>;

/**
 * A recall whose follow-up workflow is not running (its start was lost after the recall was stored, or
 * its run terminated) is followed again by the reconciler's pass, as a stranded batch is started again.
 */
describe('the reconciler follows again an open recall whose follow-up is not running', () => {
  const temporal = temporalClient();
  let chain: Chain;
  const issue = async (): Promise<string> => {
    const issued = await client(chain.farm.key).post('/Integration/Recalls', {
      ProductId: chain.products.fishA.Id,
      LotSerial: chain.lot,
      Reason: 'Listeria in a retained sample.',
      EffectivenessCheck: { Level: 'E' },
    });
    expect(issued.status).toBe(201);
    // Issued a while ago: the reconciler leaves alone what was issued a moment ago (its start may be under way).
    await sql().query(`UPDATE recalls SET created_at = now() - interval '10 minutes' WHERE id = $1`, [issued.body.id]);
    return issued.body.id as string;
  };
  const statusOf = async (recallId: string): Promise<string> => {
    try {
      return (await temporal.workflow.getHandle(recallWorkflowId(recallId)).describe()).status.name;
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return 'NOT_FOUND';
      throw error;
    }
  };

  /** A recall stored as issueRecall stores it, without the signal-with-start before: Temporal has no workflow of it. */
  const storeWithoutFollowUp = async (issuedAgo: string): Promise<string> => {
    const recallId = randomUUID();
    await sql().query(
      `INSERT INTO recalls (id, issuer_account_id, product_id, lot_serial, reason, depth, check_level, check_percent,
                            remind_every_seconds, overdue_after_reminders, created_at)
       VALUES ($1, $2, $3, $4, 'Stored without its follow-up.', 'Consumer', 'E', 0, 86400, 3, now() - $5::interval)`,
      [
        recallId,
        chain.farm.id,
        await serviceId('products', chain.farm.id, chain.products.fishA.Id),
        chain.lot,
        issuedAgo,
      ],
    );
    return recallId;
  };

  beforeAll(async () => {
    chain = await threeAccountChain();
  });

  it('starts the follow-up of an open recall again; a closed one it leaves ended', async () => {
    const lost = await issue();
    const closed = await issue();
    const handle = temporal.workflow.getHandle(recallWorkflowId(lost));
    const { runId: lostRun } = await handle.describe();
    await handle.terminate('the follow-up is lost');
    expect(await client(chain.farm.key).post(`/Integration/Recalls/${closed}/close`, {})).toMatchObject({
      status: 200,
    });
    await expect(temporal.workflow.getHandle(recallWorkflowId(closed)).result()).resolves.toEqual<FollowRecallResult>({
      reminders: 0,
      overdue: [],
    });
    const { runId: closedRun } = await temporal.workflow.getHandle(recallWorkflowId(closed)).describe();

    await reconcileUntil(temporal, `the reconciler to follow recall ${lost} again`, 90_000, async () => {
      const { status, runId } = await temporal.workflow.getHandle(recallWorkflowId(lost)).describe();
      return status.name === 'RUNNING' && runId !== lostRun;
    });
    // The closed recall's follow-up ended with the close: not started again.
    const closedNow = await temporal.workflow.getHandle(recallWorkflowId(closed)).describe();
    expect([closedNow.status.name, closedNow.runId]).toEqual(['COMPLETED', closedRun]);

    // The new run follows the recall as the first did: the close ends it.
    expect((await client(chain.farm.key).post(`/Integration/Recalls/${lost}/close`, {})).status).toBe(200);
    await expect(handle.result()).resolves.toEqual<FollowRecallResult>({ reminders: 0, overdue: [] });
    expect(await statusOf(lost)).toBe('COMPLETED');
  }, 150_000);

  it('starts the follow-up of a recall stored without one (its start never happened)', async () => {
    const recallId = await storeWithoutFollowUp('10 minutes');
    expect(await statusOf(recallId)).toBe('NOT_FOUND');
    await reconcileUntil(
      temporal,
      `the reconciler to start the follow-up of recall ${recallId}`,
      90_000,
      async () => (await statusOf(recallId)) === 'RUNNING',
    );
    expect((await client(chain.farm.key).post(`/Integration/Recalls/${recallId}/close`, {})).status).toBe(200);
    await expect(temporal.workflow.getHandle(recallWorkflowId(recallId)).result()).resolves.toEqual<FollowRecallResult>(
      { reminders: 0, overdue: [] },
    );
  }, 150_000);

  it('looks at every open recall, page by page: a lost follow-up behind a full page of running ones is found', async () => {
    const running = [await issue(), await issue()];
    const lost = await storeWithoutFollowUp('20 seconds');
    // Issued 20 s ago: the stack's own reconciler (RECONCILE_AFTER_SECONDS 60) leaves it to this call. Older
    // open recalls of the tests before are running or followed already; pages of one walk them all.
    const followed = await followLostRecalls(models(), temporal, loadConfig().taskQueue, 5, 1);
    expect(followed).toEqual([lost]);
    expect(await statusOf(lost)).toBe('RUNNING');
    for (const id of [...running, lost])
      expect((await client(chain.farm.key).post(`/Integration/Recalls/${id}/close`, {})).status).toBe(200);
  }, 150_000);
});
