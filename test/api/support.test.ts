import type { BrowserContext, Page } from 'playwright-core';
import { closeChromium, launchChromium } from '../helpers/browser';
import { createAccount, createSupportKey, type TestAccount } from '../factories/accounts';
import { commission, instance, ship, uid } from '../factories/events';
import { holdingTimeline, sql, timelineOf } from '../helpers/db';
import { apiUrl, client, request } from '../helpers/http';

async function failedShip(account: TestAccount) {
  const lot = uid('LOT');
  const events = [ship({ location: 'DOCK', time: '2024-03-02T10:00:00Z' }, instance('COD', lot, 5))];
  const accepted = await client(account.key).post('/Integration/Events/async', { Events: events });
  for (let i = 0; i < 300; i++) {
    if ((await client(account.key).get(accepted.body.statusUrl)).body.status === 'Failed')
      return { batchId: accepted.body.batchId as string, lot, events };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the batch did not fail');
}

/** A failed ship whose cause is then fixed, and its lot's timeline: while that is locked, a retry stays on its way. */
async function fixedFailure(account: TestAccount) {
  const { batchId, lot } = await failedShip(account);
  const stock = await client(account.key).post('/Integration/Events', {
    Events: [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('COD', lot, 10))],
  });
  expect(stock.status).toBe(200);
  return { batchId, timeline: await timelineOf(account.id, stock.body.batchId) };
}

describe('GET /support', () => {
  let context: BrowserContext;
  let page: Page;
  /** Every request the page sent, and the ones that left the service. */
  let sent: string[];
  let foreign: string[];

  beforeAll(async () => {
    context = await launchChromium('support');
  }, 60_000);

  beforeEach(async () => {
    page = await context.newPage();
    sent = [];
    foreign = [];
    const errors: string[] = [];
    page.on('request', (r) => {
      sent.push(`${r.method()} ${r.url().replace(apiUrl(), '')}`);
      if (!r.url().startsWith(apiUrl())) foreign.push(r.url());
    });
    page.on('console', (message) => {
      // A refused key (401) or action (403) is an answer the page shows, not a fault of the page.
      if (message.type() === 'error' && !/status of 40[13]/.test(message.text())) errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    (page as Page & { errors: string[] }).errors = errors;
  });

  afterEach(async () => {
    // The page's script ran under its own CSP without a refusal, and nothing was fetched from outside.
    expect((page as Page & { errors: string[] }).errors).toEqual([]);
    expect(foreign).toEqual([]);
    await page.close();
  });

  afterAll(async () => {
    if (context) await closeChromium(context);
  });

  /** Opens the page and signs in with `key`. */
  async function signIn(key: string): Promise<void> {
    await page.goto(`${apiUrl()}/support`);
    await page.fill('#key', key);
    await page.click('button[type=submit]');
  }

  /** Signs in with the account's key and opens its failed batch. */
  async function openFailed(account: TestAccount, batchId: string): Promise<void> {
    await signIn(account.key);
    await page.locator(`#failed tr[data-batch-id="${batchId}"] button`).click();
    await page.waitForSelector('#retry');
  }

  it('is served without a key, and a keyless visit shows no data and asks for none', async () => {
    const response = await request('GET', '/support');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");

    await page.goto(`${apiUrl()}/support`);
    await page.waitForSelector('#sign-in');
    expect(await page.isVisible('#key')).toBe(true);
    expect(await page.isVisible('#signed-in')).toBe(false);
    expect(await page.$$('tr[data-batch-id]')).toHaveLength(0);
    expect(sent.filter((r) => r.includes('/Integration/'))).toEqual([]);

    // Signing in with a key that is not one shows the API's answer, and still no data.
    await page.fill('#key', 'trc_not_a_key');
    await page.click('button[type=submit]');
    await page.waitForSelector('#sign-in-message [role=alert]');
    expect(await page.textContent('#sign-in-message')).toContain('The API key is not valid.');
    expect(await page.isVisible('#signed-in')).toBe(false);
  });

  it('lists a failed batch; retried after the cause is fixed, the retry is followed to Completed', async () => {
    const account = await createAccount('support-page');
    const { batchId, lot } = await failedShip(account);

    await signIn(account.key);
    const listed = page.locator(`#failed tr[data-batch-id="${batchId}"]`);
    await listed.waitFor();
    expect(await listed.textContent()).toContain('InsufficientInventory');

    await listed.locator('button').click();
    await page.waitForSelector('#detail ol.errors li');
    expect(await page.textContent('#detail ol.errors')).toContain('InsufficientInventory');

    // The cause: the lot was never commissioned. Once it is, the same events go through.
    expect(
      (
        await client(account.key).post('/Integration/Events', {
          Events: [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('COD', lot, 10))],
        })
      ).status,
    ).toBe(200);
    await page.click('#retry');
    await page.waitForSelector('#detail dd[data-field="Status"].Completed', { timeout: 30_000 });
    expect(await page.textContent('#detail [data-field="Retry of"]')).toBe(batchId);
    expect(sent).toContain(`POST /Integration/Batches/${batchId}/retry`);

    // The original now names its completed retry, and leaves the failed list.
    await page.click('#detail [data-field="Retry of"]');
    await page.waitForSelector('#detail [data-field="Retried by"]');
    expect(await page.textContent('#detail [data-field="Retried by"]')).toContain('Completed');
    expect(await page.isVisible('#retry')).toBe(false);
    await page.click('#refresh');
    await page.locator(`#failed tr[data-batch-id="${batchId}"]`).waitFor({ state: 'detached' });
  });

  it('follows a batch on its way with asks that wait for its end, not an ask a second', async () => {
    const account = await createAccount('support-page');
    const { batchId, timeline } = await fixedFailure(account);
    const asks: { path: string; prefer: string | null }[] = [];
    page.on('request', (r) => {
      const path = r.url().replace(apiUrl(), '');
      if (r.method() === 'GET' && path.startsWith('/Integration/Batches/'))
        asks.push({ path, prefer: r.headers()['prefer'] ?? null });
    });
    await openFailed(account, batchId);

    await holdingTimeline(timeline, async () => {
      await page.click('#retry');
      await page.waitForSelector('#detail dd[data-field="Status"]:is(.Accepted, .Running)');
      await new Promise((resolve) => setTimeout(resolve, 3000));
    });
    await page.waitForSelector('#detail dd[data-field="Status"].Completed', { timeout: 30_000 });
    const retryId = (await page.textContent('#detail h2'))!.replace('Batch ', '');
    // One ask as the retry opened, then one that waited the three seconds for the end.
    expect(asks.filter((ask) => ask.path === `/Integration/Batches/${retryId}`).map((ask) => ask.prefer)).toEqual([
      null,
      'wait=20',
    ]);
  });

  it('opening another batch cancels the waiting ask about the one it followed', async () => {
    const account = await createAccount('support-page');
    const { batchId, timeline } = await fixedFailure(account);
    const cancelled: string[] = [];
    page.on('requestfailed', (r) => cancelled.push(r.url().replace(apiUrl(), '')));
    await openFailed(account, batchId);

    let retryId = '';
    await holdingTimeline(timeline, async () => {
      const waiting = page.waitForRequest((r) => r.headers()['prefer'] === 'wait=20');
      await page.click('#retry');
      await page.waitForSelector('#detail dd[data-field="Status"]:is(.Accepted, .Running)');
      retryId = (await page.textContent('#detail h2'))!.replace('Batch ', '');
      await waiting;
      await page.click('#detail [data-field="Retry of"]');
      await page.waitForSelector(`#detail h2:text-is("Batch ${batchId}")`);
    });
    // The retry ends now; the page stays on the batch opened last.
    const ended = await client(account.key).get(`/Integration/Batches/${retryId}`, { Prefer: 'wait=20' });
    expect(ended.body.status).toBe('Completed');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await page.textContent('#detail h2')).toBe(`Batch ${batchId}`);
    expect(cancelled).toEqual([`/Integration/Batches/${retryId}`]);
  });

  it('says so when an ask about a batch is cut off on its way', async () => {
    const account = await createAccount('support-page');
    const { batchId } = await failedShip(account);
    await signIn(account.key);
    await page.route(`**/Integration/Batches/${batchId}`, (route) => route.abort('connectionreset'));
    await page.locator(`#failed tr[data-batch-id="${batchId}"] button`).click();
    await page.waitForSelector('#detail [role=alert]');
    expect(await page.textContent('#detail')).toContain(`Could not ask about batch ${batchId}`);
    // The browser logs the request it was told to cut off: that is the case under test, not a fault.
    const errors = (page as Page & { errors: string[] }).errors;
    errors.splice(0, errors.length, ...errors.filter((e) => !e.includes('ERR_CONNECTION_RESET')));
  });

  it('a support key lists every account’s failed batches; signing out clears them', async () => {
    const account = await createAccount('support-page');
    const support = await createSupportKey();
    const { batchId } = await failedShip(account);

    await signIn(support.key);
    const listed = page.locator(`#failed tr[data-batch-id="${batchId}"]`);
    await listed.waitFor();
    expect(await listed.textContent()).toContain(account.name);

    await page.click('#sign-out');
    expect(await page.isVisible('#key')).toBe(true);
    expect(await page.$$('tr[data-batch-id]')).toHaveLength(0);
  });

  it('lists a replaced batch apart, without a Retry; a support key abandons an open one with a reason, shown with its key id', async () => {
    const account = await createAccount('support-page');
    const support = await createSupportKey();
    const replaced = await failedShip(account);
    const commissioned = commission(
      { location: 'DOCK', time: '2024-03-01T10:00:00Z' },
      instance('COD', replaced.lot, 10),
    );
    expect((await client(account.key).post('/Integration/Events', { Events: [commissioned] })).status).toBe(200);
    // The integrator sent the same events again as a new batch: the failed one has nothing left to do.
    const resent = await client(account.key).post('/Integration/Events', { Events: replaced.events });
    expect(resent.status).toBe(200);
    const open = await failedShip(account);

    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(support.key);
    const closedRow = page.locator(`#closed tr[data-batch-id="${replaced.batchId}"]`);
    await closedRow.waitFor();
    expect(await closedRow.locator('td.Replaced').textContent()).toBe('Replaced');
    expect(await closedRow.locator('td.case').textContent()).toContain(`replaced by ${resent.body.batchId}`);
    expect(await page.locator(`#failed tr[data-batch-id="${replaced.batchId}"]`).count()).toBe(0);

    await closedRow.locator('button').click();
    await page.waitForSelector('#detail [data-field="Replaced by"]');
    expect(await page.textContent('#detail [data-field="Replaced by"]')).toBe(resent.body.batchId);
    expect(await page.locator('#retry').count()).toBe(0);
    expect(await page.locator('#abandon').count()).toBe(0);

    const reason = 'Test batch sent to production by mistake; the sender confirmed.';
    await page.locator(`#failed tr[data-batch-id="${open.batchId}"] button`).click();
    await page.waitForSelector('#abandon');
    await page.fill('#abandon-reason', reason);
    await page.click('#abandon');
    await page.waitForSelector('#detail [data-field="Abandoned"]');
    expect(await page.textContent('#detail [data-field="Abandoned"]')).toBe(reason);
    expect(await page.textContent('#detail [data-field="Abandoned by"]')).toContain(`key ${support.keyId}, `);
    expect(await page.locator('#retry').count()).toBe(0);
    expect(sent).toContain(`POST /Integration/Batches/${open.batchId}/abandon`);
    const abandonedRow = page.locator(`#closed tr[data-batch-id="${open.batchId}"]`);
    await abandonedRow.waitFor();
    expect(await abandonedRow.locator('td.case').textContent()).toBe(`abandoned: ${reason}`);
    expect(await page.locator(`#failed tr[data-batch-id="${open.batchId}"]`).count()).toBe(0);
    if (process.env.SUPPORT_SCREENSHOT) await page.screenshot({ path: process.env.SUPPORT_SCREENSHOT, fullPage: true });
  });

  it('lists a sync call refused in its own answer apart (its caller holds the 400), still retryable', async () => {
    const account = await createAccount('support-page');
    const support = await createSupportKey();
    const refused = await client(account.key).post('/Integration/Events', {
      Events: [ship({ location: 'DOCK', time: '2024-03-02T10:00:00Z' }, instance('COD', uid('LOT'), 5))],
    });
    expect(refused.status).toBe(400);
    const { rows } = await sql().query<{ id: string }>(
      "SELECT id FROM batches WHERE account_id = $1 AND status = 'Failed'",
      [account.id],
    );
    const batchId = rows[0].id;

    await signIn(support.key);
    const row = page.locator(`#closed tr[data-batch-id="${batchId}"]`);
    await row.waitFor();
    expect(await row.locator('td.Answered').textContent()).toBe('Answered');
    expect(await row.locator('td.case').textContent()).toContain('answered: refused in its call’s 400');
    expect(await page.locator(`#failed tr[data-batch-id="${batchId}"]`).count()).toBe(0);
    await row.locator('button').click();
    await page.waitForSelector('#retry');
    expect(await page.locator('#abandon-form').count()).toBe(0);
    // SUPPORT_ANSWERED_SCREENSHOT=/tmp/answered writes /tmp/answered-1280.png and /tmp/answered-1920.png.
    for (const width of process.env.SUPPORT_ANSWERED_SCREENSHOT ? [1280, 1920] : []) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${process.env.SUPPORT_ANSWERED_SCREENSHOT}-${width}.png`, fullPage: true });
    }
  });

  it('a support key sees every account’s failing webhook endpoints, with what waits behind them', async () => {
    const account = await createAccount('support-hooks');
    const support = await createSupportKey();
    const created = await client(account.key).post('/Integration/Webhooks', {
      Url: 'http://127.0.0.1:9/hooks',
      Events: ['batch.completed'],
    });
    // Retries running out takes WEBHOOK_RETRY_SECONDS; the row is what the page reads.
    await sql().query(
      `UPDATE webhook_endpoints SET failing_since = now(), failing_reason = 'the receiver answered 500' WHERE id = $1`,
      [created.body.id],
    );

    await signIn(support.key);
    const listed = page.locator(`#failing-webhooks tr[data-endpoint-id="${created.body.id}"]`);
    await listed.waitFor();
    const text = await listed.textContent();
    expect(text).toContain(account.name);
    expect(text).toContain('http://127.0.0.1:9/hooks');
    expect(text).toContain('the receiver answered 500');

    await page.click('#sign-out');
    expect(await page.$$('tr[data-endpoint-id]')).toHaveLength(0);
  });

  it('an account key sees why it cannot abandon, and the batch stays open', async () => {
    const account = await createAccount('support-page');
    const { batchId } = await failedShip(account);
    await signIn(account.key);
    await page.locator(`#failed tr[data-batch-id="${batchId}"] button`).click();
    await page.waitForSelector('#abandon');
    await page.click('#abandon');
    await page.waitForSelector('#detail-message [role=alert]');
    expect(await page.textContent('#detail-message')).toContain('Say why');
    await page.fill('#abandon-reason', 'not mine to close');
    await page.click('#abandon');
    await page.locator('#detail-message [role=alert]', { hasText: 'Only a support key' }).waitFor();
    expect((await client(account.key).get(`/Integration/Batches/${batchId}`)).body.abandoned).toBeNull();
  });
});
