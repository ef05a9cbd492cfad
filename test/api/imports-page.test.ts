import fs from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { createAccount, type TestAccount } from '../factories/accounts';
import { commission, instance, uid } from '../factories/events';
import { closeChromium, launchChromium } from '../helpers/browser';
import { apiUrl, client } from '../helpers/http';

describe('GET /imports', () => {
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let foreign: string[];
  let account: TestAccount;
  let place: string;
  let fish: string;

  beforeAll(async () => {
    [context, account] = await Promise.all([launchChromium('imports'), createAccount('imp-page')]);
    place = uid('LOC');
    fish = uid('COD');
    const seeded = await client(account.key).post('/Integration/Events', {
      Events: [commission({ location: place, time: '2024-01-01T00:00:00Z' }, instance(fish, uid('SEED'), 1))],
    });
    if (seeded.status !== 200) throw new Error(`seeding failed: ${seeded.text}`);
  }, 120_000);

  beforeEach(async () => {
    page = await context.newPage();
    errors = [];
    foreign = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(apiUrl()) && !r.url().startsWith('blob:')) foreign.push(r.url());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      // A 4xx answer the page shows is logged by Chromium as a failed resource; the script's own errors are not allowed.
      if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) errors.push(message.text());
    });
    await page.goto(`${apiUrl()}/imports`);
    await page.fill('#key', account.key);
    await page.click('#sign-in button[type=submit]');
    await page.waitForSelector('#upload');
  });

  afterEach(async () => {
    await page.close();
    // The page's script ran under its own CSP without an error, and nothing was fetched from elsewhere.
    if (errors.length || foreign.length)
      throw new Error(`page errors: ${JSON.stringify(errors)}; foreign requests: ${JSON.stringify(foreign)}`);
  });

  afterAll(async () => {
    await closeChromium(context);
  });

  const choose = (name: string, text: string) =>
    page.setInputFiles('#file', { name, mimeType: 'text/csv', buffer: Buffer.from(text) });
  const HEADER =
    'Id,Location.Id,EventTime,EventTimeZone,ProductInstances.Quantity,ProductInstances.LotSerial,ProductInstances.Product.Id';

  it('uploads a file and follows it to Completed', async () => {
    const id = uid('EV');
    await page.selectOption('#kind', 'commission');
    await choose('ok.csv', `${HEADER}\n${id},${place},2024-03-01T10:00:00,+01:00,5,${uid('L')},${fish}\n`);
    await page.click('#upload button[type=submit]');
    await page.waitForSelector('#import-status.Completed', { timeout: 60_000 });
    expect(await page.textContent('#import-rows')).toBe('1');
    expect(await page.textContent('#import-stored')).toBe('1 event');
  });

  it('shows every row error in a table with its row, column and value', async () => {
    await page.selectOption('#kind', 'commission');
    await page.fill('#idempotency-key', uid('page-key'));
    await choose(
      'bad.csv',
      `${HEADER}\n${uid('EV')},${place},2024-03-01T10:00:00,+01:00,ten,L1,${fish}\n${uid('EV')},${place},not a time,+01:00,1,L2,${fish}\n`,
    );
    await page.click('#upload button[type=submit]');
    await page.waitForSelector('#errors-table');
    expect(await page.textContent('#import-status')).toBe('Failed');
    expect(await page.textContent('#upload-message .error')).toBe(
      'bad.csv was refused: nothing was stored. Its errors are listed below.',
    );
    const rows = await page.$$eval('#errors-table tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
    );
    expect(rows).toContainEqual([
      '2',
      'ProductInstances.Quantity',
      'ten',
      'InvalidValue',
      'ProductInstances.Quantity must be a number.',
    ]);
    expect(rows.some((r) => r[0] === '3' && r[1] === 'EventTime' && r[2] === 'not a time')).toBe(true);
    if (process.env.IMPORTS_SCREENSHOT) await page.screenshot({ path: process.env.IMPORTS_SCREENSHOT, fullPage: true });
  });

  it('an unknown column is said at once, naming the column meant', async () => {
    await page.selectOption('#kind', 'commission');
    await choose('typo.csv', 'Id,Location.Id,EventTme\nX,Y,Z\n');
    await page.click('#upload button[type=submit]');
    await page.waitForSelector('#upload-message .error');
    expect(await page.textContent('#upload-message')).toContain('Did you mean EventTime?');
  });

  it('downloads a template', async () => {
    await page.selectOption('#template-kind', 'ship');
    await page.selectOption('#template-format', 'csv');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#template button[type=submit]')]);
    expect(download.suggestedFilename()).toBe('ship-template.csv');
    const text = fs.readFileSync((await download.path())!, 'utf8');
    expect(text.split('\r\n')[0]).toContain('DestinationLocation.Id');
  });
});
