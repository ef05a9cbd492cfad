import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { TestAccount } from '../factories/accounts';
import { threeAccountChain } from '../factories/trace-chain';
import { apiUrl, request } from '../helpers/http';

/** Debian's chromium, as test/api/support.test.ts drives it: playwright-core downloads no browser. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

describe('GET /trace', () => {
  let context: BrowserContext;
  let profile: string;
  let page: Page;
  let foreign: string[];
  let errors: string[];
  let chain: Awaited<ReturnType<typeof threeAccountChain>>;

  beforeAll(async () => {
    profile = fs.mkdtempSync(path.join(os.tmpdir(), 'trace-chromium-'));
    [context, chain] = await Promise.all([
      chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, acceptDownloads: true }),
      threeAccountChain(),
    ]);
  }, 60_000);

  beforeEach(async () => {
    page = await context.newPage();
    foreign = [];
    errors = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(apiUrl()) && !r.url().startsWith('blob:')) foreign.push(r.url());
    });
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
  });

  afterEach(async () => {
    // The page's script ran under its own CSP without a refusal, and nothing was fetched from outside.
    expect(errors).toEqual([]);
    expect(foreign).toEqual([]);
    await page.close();
  });

  afterAll(async () => {
    await context?.close();
    fs.rmSync(profile, { recursive: true, force: true });
  });

  async function traceIn(account: TestAccount, productId: string, lotSerial: string) {
    await page.goto(`${apiUrl()}/trace`);
    await page.fill('#key', account.key);
    await page.click('#sign-in button[type=submit]');
    await page.waitForSelector('#trace');
    await page.fill('#product', productId);
    await page.fill('#lot', lotSerial);
    await page.click('#trace button[type=submit]');
    await page.waitForSelector('#graph svg');
  }

  const drawn = async () => ({
    bands: await page.$$eval('#graph g[data-account]', (gs) => gs.map((g) => g.getAttribute('data-account')!)),
    nodes: (await page.$$eval('#graph g.node', (gs) => gs.map((g) => g.textContent ?? ''))).sort(),
    edges: (await page.$$eval('#graph text.edge-label', (ts) => ts.map((t) => t.textContent ?? ''))).sort(),
  });

  it('is served without a key under a strict CSP', async () => {
    const response = await request('GET', '/trace');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('draws the retailer’s three-account chain: every node, one band per account, quantities on the edges', async () => {
    await traceIn(chain.retailer, chain.products.filletC.Id, chain.fillet);
    const { bands, nodes, edges } = await drawn();
    expect(bands).toEqual([chain.farm.name, chain.processor.name, chain.retailer.name]);
    expect(nodes).toHaveLength(5);
    expect(nodes.filter((n) => n.includes('Processor dock'))).toHaveLength(2);
    expect(nodes.some((n) => n.includes('Farm'))).toBe(true);
    expect(nodes.some((n) => n.includes('Retail shop') && n.includes('on hand 10 KGM'))).toBe(true);
    expect(edges).toEqual(['Ship 10', 'Ship 30', 'Ship 60', 'Transform 50']);
    expect(await page.textContent('#trace-message')).toContain('5 nodes, 4 events, 3 accounts');

    // Click the farm's node: its numbers, its events up to its shipment toward the retailer, and where the lot went.
    await page.click('#graph g.node.shared >> text=Farm');
    await page.waitForSelector('#node-events table');
    expect(await page.textContent('#detail dl')).toContain(chain.farm.name);
    expect(await page.$$eval('#node-events tbody tr', (rows) => rows.map((r) => r.textContent ?? ''))).toEqual([
      expect.stringMatching(/^2024-07-01 06:00:00ZCommission100 KGM$/),
      expect.stringMatching(/^2024-07-02 06:00:00ZShip60 KGMto Processor dock \(farm record\)$/),
    ]);
    expect(await page.$$eval('#detail > table tbody tr', (rows) => rows.map((r) => r.textContent ?? ''))).toEqual([expect.stringMatching(/Ship60to Whole cod .* @ Processor dock/)]);

    // The spreadsheet downloads.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
    expect(download.suggestedFilename()).toBe(`fsma204-${chain.fillet}.csv`);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    expect(csv.split('\n')[0]).toMatch(/^Critical Tracking Event,Traceability Lot Code,/);
    expect(csv.trim().split('\n')).toHaveLength(9);
  });

  it('another account’s key draws only its visible part: the processor sees the farm and its own records, not the retailer', async () => {
    await traceIn(chain.processor, chain.products.fishB.Id, chain.lot);
    const { bands, nodes } = await drawn();
    expect(bands).toEqual([chain.farm.name, chain.processor.name]);
    expect(nodes).toHaveLength(4);
    expect(nodes.some((n) => n.includes('Retail store (processor record)'))).toBe(true);
    expect(nodes.some((n) => n.includes('Retail shop'))).toBe(false);
    expect(await page.content()).not.toContain(chain.retailer.name);
  });

  it('shows the API’s refusal for an unknown product', async () => {
    await page.goto(`${apiUrl()}/trace`);
    await page.fill('#key', chain.retailer.key);
    await page.click('#sign-in button[type=submit]');
    await page.fill('#product', 'NO-SUCH-PRODUCT');
    await page.fill('#lot', 'X');
    await page.click('#trace button[type=submit]');
    await page.waitForSelector('#trace-message [role=alert]');
    expect(await page.textContent('#trace-message')).toContain('Product not found: NO-SUCH-PRODUCT');
    errors.splice(0); // the 404 the browser logs is the answer the page shows
  });
});
