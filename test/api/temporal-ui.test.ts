import { WorkflowFailedError } from '@temporalio/client';
import { waitFor } from '../../platform/net';
import { createAccount, type TestAccount } from '../factories/accounts';
import { commission, instance, ship, uid } from '../factories/events';
import { client } from '../helpers/http';
import { temporalClient } from '../helpers/temporal';

/**
 * What an operator reads in the Temporal UI (issue 28): batches found from the list by account, mode
 * and status (search attributes), and on a batch's page how to retry it instead of pressing Reset.
 */
describe('batches in the Temporal UI', () => {
  const temporal = temporalClient();
  let account: TestAccount;
  let completed: string;
  let failed: string;

  async function settled(batchId: string): Promise<string> {
    let status = '';
    await waitFor(`batch ${batchId} to finish`, 60_000, async () => {
      status = (await client(account.key).get(`/Integration/Events/async/${batchId}`)).body.status;
      return status === 'Completed' || status === 'Failed';
    });
    return status;
  }

  /** The workflow ids the list's search box finds for `query` (visibility lags the workflow a little). */
  async function found(query: string, expected: number): Promise<string[]> {
    let ids: string[] = [];
    await waitFor(`${expected} workflow(s) for ${query}`, 30_000, async () => {
      ids = [];
      for await (const execution of temporal.workflow.list({ query })) ids.push(execution.workflowId);
      return ids.length >= expected;
    });
    return ids.sort();
  }

  beforeAll(async () => {
    account = await createAccount('SeaCo');
    const lot = uid('LOT');
    const ok = await client(account.key).post('/Integration/Events/async', {
      Events: [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('COD', lot, 5))],
    });
    // Shipping a lot never commissioned: refused by persist, the batch Failed.
    const refused = await client(account.key).post('/Integration/Events/async', {
      Events: [ship({ location: 'DOCK', time: '2024-03-02T10:00:00Z' }, instance('COD', uid('NOLOT'), 5))],
    });
    completed = ok.body.batchId;
    failed = refused.body.batchId;
    expect(await settled(completed)).toBe('Completed');
    expect(await settled(failed)).toBe('Failed');
  }, 120_000);

  it('finds a batch from the list by account, mode and status', async () => {
    const byAccount = `AccountName = "${account.name}" AND BatchMode = "async"`;
    expect(await found(`${byAccount} AND BatchStatus = "Failed"`, 1)).toEqual([`batch-${failed}`]);
    expect(await found(`${byAccount} AND BatchStatus = "Completed"`, 1)).toEqual([`batch-${completed}`]);
    expect(await found(`AccountName = "${account.name}" AND BatchMode = "sync"`, 0)).toEqual([]);
    // The attribute follows the batch row, not only the workflow's start.
    const described = await temporal.workflow.getHandle(`batch-${completed}`).describe();
    expect(described.searchAttributes.BatchStatus).toEqual(['Completed']);
  });

  it("says on a batch's page how to retry it, and that Reset is not the way", async () => {
    const described = await temporal.workflow.getHandle(`batch-${failed}`).describe();
    expect(await described.staticSummary()).toBe(`${account.name} · async · 1 event`);
    const details = await described.staticDetails();
    expect(details).toContain(`POST /Integration/Batches/${failed}/retry`);
    expect(details).toContain(`npm run --silent batch -- retry ${failed}`);
    expect(details).toMatch(/do not use Reset/);
    // The UI shows User Metadata on a tab of its own; the failure is on the page's first tab, beside Reset.
    const failure = await temporal.workflow
      .getHandle(`batch-${failed}`)
      .result()
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    const message = (failure as WorkflowFailedError).cause?.message;
    expect(message).toMatch(/^Insufficient inventory/);
    expect(message).toContain(`POST /Integration/Batches/${failed}/retry`);
    expect(message).toContain('Reset cannot run a batch again');
  });
});
