import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { TestAccount } from '../factories/accounts';
import { fiftyNodeChain, threeAccountChain } from '../factories/trace-chain';
import { closeChromium, launchChromium } from '../helpers/browser';
import { apiUrl, request } from '../helpers/http';

describe('GET /trace', () => {
  let context: BrowserContext;
  let page: Page;
  let foreign: string[];
  let errors: string[];
  let chain: Awaited<ReturnType<typeof threeAccountChain>>;
  let big: Awaited<ReturnType<typeof fiftyNodeChain>>;

  beforeAll(async () => {
    // A reader in Oslo: the page shows its times in Oslo's zone (summer time in July), named.
    [context, chain, big] = await Promise.all([
      launchChromium('trace', { timezoneId: 'Europe/Oslo', locale: 'en-GB' }),
      threeAccountChain(),
      fiftyNodeChain(),
    ]);
  }, 120_000);

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
    await closeChromium(context);
  });

  async function traceIn(account: TestAccount, productId: string, lotSerial: string) {
    await page.goto(`${apiUrl()}/trace`);
    await page.fill('#key', account.key);
    await page.click('#sign-in button[type=submit]');
    await page.waitForSelector('#trace');
    await page.fill('#product', productId);
    await page.fill('#lot', lotSerial);
    await page.click('#trace button[type=submit]');
    await page.waitForSelector('#graph[data-drawn] svg');
  }

  const drawn = async () => ({
    bands: await page.$$eval('#graph g[data-account]', (gs) => gs.map((g) => g.getAttribute('data-account')!)),
    nodes: (await page.$$eval('#graph g.node', (gs): string[] => gs.map((g) => g.textContent ?? ''))).sort(),
    edges: (await page.$$eval('#graph text.edge-label', (ts): string[] => ts.map((t) => t.textContent ?? ''))).sort(),
  });

  it('is served without a key under a strict CSP', async () => {
    const response = await request('GET', '/trace');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");

    // Its script is this service's bundle (ELK inside: nothing from a CDN), the only script the CSP allows.
    const [, src, integrity] = /<script src="([^"]+)" integrity="([^"]+)"><\/script>/.exec(response.text)!;
    expect(response.headers.get('content-security-policy')).toContain(`script-src '${integrity}'`);
    const script = await request('GET', src);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('cache-control')).toContain('immutable');
    expect(`sha256-${createHash('sha256').update(script.text).digest('base64')}`).toBe(integrity);
    expect(script.text).toContain('org.eclipse.elk');
    expect((await request('GET', '/trace/page.js?v=old')).headers.get('cache-control')).toBe('no-cache');
  });

  it('draws the retailer’s three-account chain: every node, one band per account, quantities on the edges', async () => {
    await traceIn(chain.retailer, chain.products.filletC.Id, chain.fillet);
    const { bands, nodes, edges } = await drawn();
    if (process.env.TRACE_SCREENSHOTS)
      await page.screenshot({ path: path.join(process.env.TRACE_SCREENSHOTS, 'small.png') });
    expect(bands).toEqual([chain.farm.name, chain.processor.name, chain.retailer.name]);
    expect(nodes).toHaveLength(5);
    expect(nodes.filter((n) => n.includes('Processor dock'))).toHaveLength(2);
    expect(nodes.some((n) => n.includes('Farm'))).toBe(true);
    expect(nodes.some((n) => n.includes('Retail shop') && n.includes('on hand 10 kg'))).toBe(true);
    expect(edges).toEqual(['Ship 10', 'Ship 30', 'Ship 60', 'Transform 50']);
    expect(await page.textContent('#trace-message')).toContain('5 nodes, 4 events, 3 accounts');

    // Click the farm's node: its numbers, its events up to its shipment toward the retailer, and where the lot went.
    await page.click('#fit');
    await page.click('#graph g.node.shared >> text=Farm');
    await page.waitForSelector('#node-events table');
    expect(await page.textContent('#detail dl')).toContain(chain.farm.name);
    expect(await page.$$eval('#node-events tbody tr', (rows) => rows.map((r) => r.textContent ?? ''))).toEqual([
      expect.stringMatching(/^2024-07-0108:00:00 CESTCommission 100 kg$/),
      expect.stringMatching(/^2024-07-0208:00:00 CESTShip 60 kgto Processor dock \(farm record\)$/),
    ]);
    expect(await page.textContent('#detail dl')).toContain('2 events');
    expect(await page.$$eval('#detail > table tbody tr', (rows) => rows.map((r) => r.textContent ?? ''))).toEqual([
      expect.stringMatching(/Ship 60 kgto Whole cod .* @ Processor dock/),
    ]);

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

  type Box = { left: number; top: number; right: number; bottom: number };
  /** Every label's box on screen with the box of the node, edge label or band that must hold it. */
  const geometry = async () => {
    const labels = await page.$$eval('#graph-view svg text', (texts) =>
      texts.map((t) => {
        const holder = t.closest('g.node, g.edge, g.band')!;
        const rect = holder.querySelector('rect')!;
        return {
          text: t.textContent ?? '',
          box: t.getBoundingClientRect().toJSON() as Box,
          holder: rect.getBoundingClientRect().toJSON() as Box,
          kind: holder.getAttribute('class') ?? '',
        };
      }),
    );
    const traced = await page.$$eval('#graph-view g.node.root rect', (rects) =>
      rects.map((r) => r.getBoundingClientRect().toJSON() as Box),
    );
    const graph = await page.$eval('#graph-view', (e) => e.getBoundingClientRect().toJSON() as Box);
    const { width, height } = page.viewportSize()!;
    return { labels, traced, graph, window: { left: 0, top: 0, right: width, bottom: height } };
  };

  /** Boxes that share more than a hair (half a pixel of anti-aliasing either way). */
  const intersect = (a: Box, b: Box) =>
    Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const inside = (inner: Box, outer: Box) =>
    inner.left >= outer.left - 0.5 &&
    inner.right <= outer.right + 0.5 &&
    inner.top >= outer.top - 0.5 &&
    inner.bottom <= outer.bottom + 0.5;

  describe.each([
    [1280, 800],
    [1920, 1080],
  ])('the 50-node, 3-account chain at %i px', (width, height) => {
    it('shows the traced lot in view, every label inside its box, no two labels over each other, the node panel inside its panel', async () => {
      await page.setViewportSize({ width, height });
      await traceIn(big.retailer, big.fillet.Id, big.filletLot);
      await page.waitForSelector('#node-events table'); // the panel opens on the traced lot
      // TRACE_SCREENSHOTS=<folder> keeps what the page looked like (the docs' pictures come from here).
      if (process.env.TRACE_SCREENSHOTS)
        await page.screenshot({ path: path.join(process.env.TRACE_SCREENSHOTS, `trace-${width}.png`) });
      expect(await page.textContent('#trace-message')).toContain('50 nodes');
      const { bands, edges } = await drawn();
      expect(bands).toHaveLength(3);
      expect(edges).toEqual(expect.arrayContaining(['Ship 60', 'Ship 40'])); // two trucks between the same two nodes

      const { labels, traced, graph, window } = await geometry();
      expect(labels.length).toBeGreaterThan(150); // 3 lines × 50 nodes, the edges' and the bands' labels
      expect(traced).toHaveLength(1);
      expect(inside(traced[0], graph)).toBe(true);
      expect(inside(graph, window)).toBe(true);
      const outside = labels.filter((l) => !inside(l.box, l.holder)).map((l) => `${l.kind}: ${l.text}`);
      expect(outside).toEqual([]);
      const overlapping: string[] = [];
      labels.forEach((a, i) =>
        labels.slice(i + 1).forEach((b) => intersect(a.box, b.box) && overlapping.push(`${a.text} / ${b.text}`)),
      );
      expect(overlapping).toEqual([]);

      // Fit shows the whole graph; zoom changes the scale around the middle.
      await page.click('#fit');
      if (process.env.TRACE_SCREENSHOTS)
        await page.screenshot({ path: path.join(process.env.TRACE_SCREENSHOTS, `trace-${width}-fit.png`) });
      const all = await page.$$eval('#graph-view g.node rect, #graph-view g.band rect', (rects) =>
        rects.map((r) => r.getBoundingClientRect().toJSON() as Box),
      );
      const view = (await geometry()).graph;
      expect(all.every((r) => inside(r, view))).toBe(true);
      const level = await page.textContent('#zoom-level');
      await page.click('#zoom-in');
      expect(await page.textContent('#zoom-level')).not.toBe(level);

      // Dragging the background pans: the traced node moves with the pointer.
      const before = (await geometry()).traced[0];
      await page.mouse.move(view.left + 3, view.top + 3);
      await page.mouse.down();
      await page.mouse.move(view.left + 63, view.top + 43, { steps: 4 });
      await page.mouse.up();
      const after = (await geometry()).traced[0];
      expect([Math.round(after.left - before.left), Math.round(after.top - before.top)]).toEqual([60, 40]);

      // The traced node's panel: inside its panel, every time in one format.
      await page.click('#to-traced');
      await page.click('#graph-view g.node.root');
      await page.waitForSelector('#node-events table');
      const side = await page.$eval('#side', (e) => e.getBoundingClientRect().toJSON() as Box);
      const spilled = await page.$$eval('#side *:not(option)', (all) =>
        all.map((e) => ({ html: e.outerHTML.slice(0, 80), ...(e.getBoundingClientRect().toJSON() as Box) })),
      );
      const panel = {
        spilled: spilled.filter((e) => e.right > side.right + 0.5 || e.left < side.left - 0.5).map((e) => e.html),
        times: [
          ...(await page.$$eval('#detail td.time', (cells) => cells.map((c) => c.textContent ?? ''))),
          ...(await page.$$eval('#detail dt', (terms) =>
            terms.filter((t) => /event$/.test(t.textContent ?? '')).map((t) => t.nextElementSibling?.textContent ?? ''),
          )),
        ],
      };
      expect(panel.spilled).toEqual([]);
      expect(panel.times.length).toBeGreaterThan(3);
      for (const time of panel.times) expect(time).toMatch(/^\d{4}-\d\d-\d\d ?\d\d:\d\d:\d\d CES?T$/);
    });
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
