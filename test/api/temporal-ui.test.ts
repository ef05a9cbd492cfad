import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import { freePort, waitFor } from '../../platform/net';
import { startTemporalDevServer, type DevServer } from '../../supervisor/temporal';
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

/**
 * The Temporal UI `npm start` runs (the dev server's own, behind supervisor/temporal-ui.ts) offers no
 * Reset, as docker-compose.yml's does (TEMPORAL_WORKFLOW_RESET_DISABLED): the suite's stack runs without
 * a UI, so this starts a dev server the way the supervisor does.
 */
describe('the Temporal UI npm start runs', () => {
  let dev: DevServer;
  let temporal: Client;
  let csrf = '';

  /** A POST as the UI's own page sends it: with the CSRF token of its cookie. */
  const post = (path: string, body: unknown) =>
    fetch(`${dev.uiUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `_csrf=${csrf}`, 'x-csrf-token': csrf },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    dev = await startTemporalDevServer({
      cliPath: process.env.TEMPORAL_CLI_PATH,
      uiPort: await freePort(),
      namespace: 'default',
    });
    temporal = new Client({ connection: await Connection.connect({ address: dev.address }) });
  }, 90_000);
  afterAll(async () => {
    await temporal?.connection.close();
    await dev?.stop();
  });

  it('says in its settings that Reset is disabled, the rest as the dev server has them', async () => {
    let settings: Response | undefined;
    await waitFor('the UI to answer', 30_000, async () => {
      settings = await fetch(`${dev.uiUrl}/api/v1/settings`).catch(() => undefined);
      return settings?.status === 200;
    });
    csrf = /_csrf=([^;]+)/.exec(settings!.headers.get('set-cookie') ?? '')?.[1] ?? '';
    expect(csrf).not.toBe('');
    expect(await settings!.json()).toMatchObject({
      WorkflowResetDisabled: true,
      WorkflowTerminateDisabled: false,
      DisableWriteActions: false,
      Version: expect.any(String),
    });
    const page = await fetch(`${dev.uiUrl}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
  });

  it('refuses a reset sent anyway, of one workflow or as a batch operation, and passes everything else', async () => {
    const handle = await temporal.workflow.start('nobodyPollsThis', { taskQueue: 'nobody', workflowId: uid('wf') });
    const reset = await post(`/api/v1/namespaces/default/workflows/${handle.workflowId}/reset`, {
      reason: 'try',
      workflowTaskFinishEventId: '2',
      requestId: uid('req'),
    });
    expect(reset.status).toBe(403);
    expect(((await reset.json()) as { message: string }).message).toContain('a batch is retried, never reset');
    const batch = await post(`/api/v1/namespaces/default/batch-operations/${uid('job')}`, {
      visibilityQuery: `WorkflowId = "${handle.workflowId}"`,
      reason: 'try',
      resetOperation: { options: { firstWorkflowTask: {} } },
    });
    expect(batch.status).toBe(403);

    // Everything else passes, and the workflow has its one run: nothing was reset.
    const query = encodeURIComponent(`WorkflowId = "${handle.workflowId}"`);
    let runs: unknown[] = [];
    await waitFor('the workflow in the UI list', 30_000, async () => {
      const listed = await fetch(`${dev.uiUrl}/api/v1/namespaces/default/workflows?query=${query}`);
      expect(listed.status).toBe(200);
      runs = ((await listed.json()) as { executions: unknown[] }).executions;
      return runs.length > 0;
    });
    expect(runs).toHaveLength(1);
    await handle.terminate('test done');
  });
});
