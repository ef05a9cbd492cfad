import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { instance, ship } from '../factories/events';
import { threeAccountChain } from '../factories/trace-chain';
import { closeChromium, launchChromium, watchFaults, type PageFaults } from '../helpers/browser';
import { apiUrl, client } from '../helpers/http';

/**
 * The pages as one product: one navigation on each, the recalls page, a recalled lot on the trace page,
 * and /support's batch ids. PAGES_SCREENSHOTS=<folder> keeps what the pages looked like at 1280 and
 * 1920 px (the docs' pictures of them come from here: PAGES_SCREENSHOTS=docs/images).
 */
describe('the pages', () => {
  let context: BrowserContext;
  let page: Page;
  let faults: PageFaults;
  let chain: Awaited<ReturnType<typeof threeAccountChain>>;
  let fishRecall: string;
  let filletRecall: string;

  beforeAll(async () => {
    [context, chain] = await Promise.all([
      launchChromium('pages', { timezoneId: 'Europe/Oslo', locale: 'en-GB' }),
      threeAccountChain(),
    ]);
    // The farm recalls its fish lot (it reaches the processor and the other buyer, and the retailer once
    // the processor passes it on); the processor recalls its fillet lot made from it (it reaches the retailer).
    const fish = await client(chain.farm.key).post('/Integration/Recalls', {
      ProductId: chain.products.fishA.Id,
      LotSerial: chain.lot,
      Reason: 'Listeria in a retained sample.',
    });
    const fillet = await client(chain.processor.key).post('/Integration/Recalls', {
      ProductId: chain.products.filletB.Id,
      LotSerial: chain.fillet,
      Reason: 'Made from a recalled lot.',
    });
    if (fish.status !== 201 || fillet.status !== 201) throw new Error('the recalls were not issued');
    [fishRecall, filletRecall] = [fish.body.id, fillet.body.id];
    const passedOn = await client(chain.processor.key).post(`/Integration/Recalls/${fishRecall}/pass-on`);
    if (passedOn.status !== 200) throw new Error('the processor could not pass the recall on');
    const answered = await client(chain.retailer.key).post(`/Integration/Recalls/${fishRecall}/acknowledge`, {
      QuantityOnHand: 30,
      Action: 'Pulled from the shelves.',
    });
    if (answered.status !== 200) throw new Error('the retailer could not acknowledge');
  }, 120_000);

  beforeEach(async () => {
    page = await context.newPage();
    faults = watchFaults(page, apiUrl());
  });

  afterEach(async () => {
    // Every script ran under its page's CSP without an error, and nothing was fetched from elsewhere.
    expect(faults).toEqual({ errors: [], foreign: [] });
    await page.close();
  });

  afterAll(async () => {
    await closeChromium(context);
  });

  async function signIn(pagePath: string, key: string): Promise<void> {
    await page.goto(`${apiUrl()}${pagePath}`);
    await page.fill('#key', key);
    await page.click('#sign-in button[type=submit]');
    await page.waitForSelector('#signed-in:not([hidden])');
  }

  const screenshot = async (name: string) => {
    if (process.env.PAGES_SCREENSHOTS)
      await page.screenshot({ path: path.join(process.env.PAGES_SCREENSHOTS, `${name}.png`) });
  };

  it.each([
    ['/trace', 'Trace'],
    ['/recalls', 'Recalls'],
    ['/support', 'Support'],
    ['/imports', 'Imports'],
    ['/docs', 'API docs'],
  ])('%s carries the one navigation, itself marked', async (pagePath, current) => {
    await page.goto(`${apiUrl()}${pagePath}`);
    const links = await page.$$eval('header nav a', (as) =>
      as.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('aria-current')]),
    );
    expect(links).toEqual(
      [
        ['Trace', '/trace'],
        ['Recalls', '/recalls'],
        ['Support', '/support'],
        ['Imports', '/imports'],
        ['API docs', '/docs'],
      ].map(([label, href]) => [label, href, label === current ? 'page' : null]),
    );
    // A link leads there.
    await page.click(`header nav a:text-is("${current === 'Trace' ? 'Recalls' : 'Trace'}")`);
    await page.waitForURL(current === 'Trace' ? /\/recalls$/ : /\/trace$/);
  });

  describe.each([
    [1280, 800],
    [1920, 1080],
  ])('at %i px', (width, height) => {
    beforeEach(async () => {
      await page.setViewportSize({ width, height });
    });

    it('the recalls page shows the issuer its recalls and each holder’s state, the holder its notices, acknowledged from the page', async () => {
      await signIn('/recalls', chain.processor.key);
      // Issued: the fillet recall, its one holder (the retailer) not answered yet.
      const issued = page.locator(`#issued tr[data-recall-id="${filletRecall}"]`);
      await issued.waitFor();
      expect(await issued.locator('.state').allTextContents()).toEqual(['notified', 'notified']);
      expect(await issued.textContent()).toContain(`${chain.retailer.name} (1 lot: ${chain.fillet})`);
      expect(await issued.textContent()).toContain('0 of 1 holder');
      expect(await issued.locator('td.time').textContent()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d CES?T$/);

      // Received: the farm's recall; the processor acknowledges it here (once per width: a later answer replaces it).
      const notice = page.locator(`#received tr[data-recall-id="${fishRecall}"]`);
      expect(await notice.textContent()).toContain(chain.farm.name);
      expect(await notice.textContent()).toMatch(/Whole cod · \S+: 10 kg at Processor dock/);
      await notice.locator('input.quantity').fill('10');
      // Each width answers differently, so the page is seen to show this answer, not the one before.
      const action = width === 1280 ? 'Quarantined at the dock.' : 'Quarantined; returning it to the farm.';
      await notice.locator('input.action-text').fill(action);
      await notice.locator('button[type=submit]').click();
      await page
        .locator(`#received tr[data-recall-id="${fishRecall}"]`, {
          hasText: `holds 10 kg. ${action}`,
        })
        .waitFor();
      expect(await notice.locator('.state').textContent()).toBe('acknowledged');
      await screenshot(`recalls-${width}`);

      // The recalled lot's trace is a link away: the trace page traces it once signed in.
      await issued.locator('a.trace-link').click();
      await page.waitForURL(/\/trace\?/);
      await page.fill('#key', chain.processor.key);
      await page.click('#sign-in button[type=submit]');
      await page.waitForSelector('#graph[data-drawn] svg');
      expect([await page.inputValue('#product'), await page.inputValue('#lot')]).toEqual([
        chain.products.filletB.Id,
        chain.fillet,
      ]);
      expect(await page.textContent('#recall-warning')).toContain('You recalled it on ');

      // The farm sees the processor's answer, and the retailer's.
      const farm = (await client(chain.farm.key).get(`/Integration/Recalls/${fishRecall}`)).body;
      expect(
        farm.holders
          .filter((h: { state: string }) => h.state === 'acknowledged')
          .map((h: { account: string }) => h.account)
          .sort(),
      ).toEqual([chain.processor.name, chain.retailer.name].sort());
    });

    it('the trace page says a lot is under recall, marks it and every lot made from it, and says where each recall stands', async () => {
      await signIn('/trace', chain.retailer.key);
      await page.fill('#product', chain.products.filletC.Id);
      await page.fill('#lot', chain.fillet);
      await page.click('#trace button[type=submit]');
      await page.waitForSelector('#graph[data-drawn] svg');
      await page.waitForSelector('#node-events table');
      const warning = await page.textContent('#recall-warning');
      expect(warning).toContain('This lot is under recall.');
      expect(warning).toContain(`${chain.farm.name} recalled it on `);
      expect(warning).toContain('“Listeria in a retained sample.” (you acknowledged it)');
      expect(warning).toContain(`${chain.processor.name} recalled it on `);
      expect(warning).toContain('“Made from a recalled lot.” (you have not acknowledged it)');
      // Every lot of the chain the retailer sees comes from the farm's recalled lot: each is marked.
      const nodes = await page.$$eval('#graph g.node', (gs) =>
        gs.map((g) => ({ text: g.textContent ?? '', recalled: g.classList.contains('recalled') })),
      );
      expect(nodes).toHaveLength(5);
      expect(nodes.filter((n) => !n.recalled || !n.text.includes('Under recall'))).toEqual([]);
      // The traced lot's panel names both recalls; the farm's node, upstream of the fillet recall, the farm's only.
      const notes = () =>
        page.$$eval('#detail p.message.recall', (ps) => ps.map((p) => p.getAttribute('data-recall-id')));
      expect(await notes()).toEqual(expect.arrayContaining([fishRecall, filletRecall]));
      expect(await notes()).toHaveLength(2);
      if (width === 1280) await screenshot('trace-recall-1280'); // the docs show it once
      await page.click('#fit');
      await page.click('#graph g.node >> text=Farm');
      await page.waitForSelector('#detail dl');
      expect(await notes()).toEqual([fishRecall]);
    });

    it('the issuer’s trace marks the recalled lot and the lots made from it that it sees', async () => {
      await signIn('/trace', chain.farm.key);
      await page.fill('#product', chain.products.fishA.Id);
      await page.fill('#lot', chain.lot);
      await page.click('#trace button[type=submit]');
      await page.waitForSelector('#graph[data-drawn] svg');
      expect(await page.textContent('#recall-warning')).toMatch(
        /You recalled it on .*: “Listeria in a retained sample.” \(holders notified, not all acknowledged\)/,
      );
      const nodes = await page.$$eval('#graph g.node', (gs) =>
        gs.map((g) => ({ text: g.textContent ?? '', recalled: g.classList.contains('recalled') })),
      );
      expect(nodes.length).toBeGreaterThan(1);
      expect(nodes.every((n) => n.recalled)).toBe(true);
    });

    it('/support keeps a batch id on one line, with the sender’s own name for it beneath', async () => {
      const idempotencyKey = `order-4711-${width}`;
      const refused = await client(chain.retailer.key).post(
        '/Integration/Events/async',
        { Events: [ship({ location: 'NOWHERE', time: '2024-07-05T10:00:00Z' }, instance('NO-SUCH', 'LOT-X', 5))] },
        { 'Idempotency-Key': idempotencyKey },
      );
      expect(refused.status).toBe(202);
      for (let i = 0; i < 100; i++) {
        if ((await client(chain.retailer.key).get(refused.body.statusUrl)).body.status === 'Failed') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await signIn('/support', chain.retailer.key);
      const cell = page.locator(`#failed tr[data-batch-id="${refused.body.batchId}"] td.id`);
      await cell.waitFor();
      const button = await cell.locator('button').boundingBox();
      const fontSize = await cell
        .locator('button')
        .evaluate((b) => parseFloat(b.ownerDocument.defaultView!.getComputedStyle(b).fontSize));
      expect(button!.height).toBeLessThan(fontSize * 2); // one line
      expect(await cell.locator('button').getAttribute('title')).toBe(`Open batch ${refused.body.batchId}`);
      expect(await cell.locator('.key').textContent()).toBe(idempotencyKey);
      expect(await page.locator(`#failed tr[data-batch-id="${refused.body.batchId}"]`).textContent()).toContain(
        'async, 1 event',
      );
      await cell.locator('button').click();
      await page.waitForSelector('#detail dl');
      expect(await page.textContent('#detail [data-field="Idempotency-Key"]')).toBe(idempotencyKey);
      expect(await page.textContent('#detail [data-field="Submitted"]')).toMatch(
        /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d CES?T$/,
      );
      await screenshot(`support-${width}`);
    });
  });

  it('a closed recall reads closed: on the recalls page, without an answer form, and on the trace page', async () => {
    for (const [key, id] of [
      [chain.processor.key, filletRecall],
      [chain.farm.key, fishRecall],
    ])
      expect(
        (await client(key).post(`/Integration/Recalls/${id}/close`, { Reason: 'Closed for the page test.' })).status,
      ).toBe(200);
    await signIn('/recalls', chain.retailer.key);
    const notice = page.locator(`#received tr[data-recall-id="${filletRecall}"]`);
    await notice.waitFor();
    expect(await notice.locator('.state').textContent()).toBe('closed');
    expect(await notice.locator('form.acknowledge').count()).toBe(0);

    await signIn('/recalls', chain.processor.key);
    const issued = page.locator(`#issued tr[data-recall-id="${filletRecall}"]`);
    await issued.waitFor();
    // The recall's state, then its holder's (the retailer never answered).
    expect(await issued.locator('.state').allTextContents()).toEqual(['closed', 'notified']);

    await signIn('/trace', chain.retailer.key);
    await page.fill('#product', chain.products.filletC.Id);
    await page.fill('#lot', chain.fillet);
    await page.click('#trace button[type=submit]');
    await page.waitForSelector('#graph[data-drawn] svg');
    const warning = await page.textContent('#recall-warning');
    expect(warning).toContain('This lot was recalled; the recall is closed.');
    expect(warning).toContain('“Made from a recalled lot.” (closed)');
  });
});
