import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { instance, ship } from '../factories/events';
import { threeAccountChain } from '../factories/trace-chain';
import { closeChromium, launchChromium, watchFaults, type PageFaults } from '../helpers/browser';
import { apiUrl, client } from '../helpers/http';

/**
 * The pages as one product: one navigation on each, the recalls page (a recall's effectiveness as its
 * issuer sees it, per consignee and in total), a recalled lot on the trace page, and /support's batch ids. PAGES_SCREENSHOTS=<folder> keeps what the pages looked like at 1280 and
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
    // The farm's reminders come every 3 s, overdue after one: the other buyer, which never answers, is
    // overdue within seconds; the others answer at once.
    const fish = await client(chain.farm.key).post('/Integration/Recalls', {
      ProductId: chain.products.fishA.Id,
      LotSerial: chain.lot,
      Reason: 'Listeria in a retained sample.',
      Reminders: { EverySeconds: 3, OverdueAfter: 1 },
    });
    const fillet = await client(chain.processor.key).post('/Integration/Recalls', {
      ProductId: chain.products.filletB.Id,
      LotSerial: chain.fillet,
      Reason: 'Made from a recalled lot.',
    });
    if (fish.status !== 201 || fillet.status !== 201) throw new Error('the recalls were not issued');
    [fishRecall, filletRecall] = [fish.body.id, fillet.body.id];
    if ((await processorAnswersPerLot()).status !== 200) throw new Error('the processor could not answer');
    const passedOn = await client(chain.processor.key).post(`/Integration/Recalls/${fishRecall}/pass-on`);
    if (passedOn.status !== 200) throw new Error('the processor could not pass the recall on');
    if ((await retailerAnswersPerLot()).status !== 200) throw new Error('the retailer could not acknowledge');
    for (let i = 0; ; i++) {
      const { holders } = (await client(chain.farm.key).get(`/Integration/Recalls/${fishRecall}`)).body;
      if (holders.find((h: { account: string }) => h.account === chain.other.name).overdueTime) break;
      if (i === 300) throw new Error('the other buyer never became overdue');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 120_000);

  /**
   * The processor's answer to the farm's recall, per lot: of the 60 kg of the fish lot it received, 10 on
   * hand, 20 destroyed, 30 sold on (as fillet). The recalls page's answer form answers again (and the
   * retailer answers there otherwise), so a test that reads the farm's figures answers this again first.
   */
  function processorAnswersPerLot() {
    return client(chain.processor.key).post(`/Integration/Recalls/${fishRecall}/acknowledge`, {
      QuantityOnHand: 10,
      Action: 'Quarantined; the rest destroyed or shipped on as fillet.',
      Lots: [{ LotSerial: chain.lot, OnHand: 10, Destroyed: 20, SoldOn: 30 }],
    });
  }

  /**
   * The retailer's answer to the farm's recall (passed on to it by the processor), per lot: of the 30 kg
   * of fillet shipped to it, 20 on hand, 5 returned, 3 destroyed (recorded nowhere): 2 kg still out.
   */
  function retailerAnswersPerLot() {
    return client(chain.retailer.key).post(`/Integration/Recalls/${fishRecall}/acknowledge`, {
      QuantityOnHand: 20,
      Action: 'Pulled from the shelves.',
      Lots: [{ LotSerial: chain.fillet, OnHand: 20, Returned: 5, Destroyed: 3 }],
    });
  }

  /** What the retailer's store holds of the fillet lot now, by GET /Integration/Inventory. */
  async function storeHolds(): Promise<number> {
    const query = new URLSearchParams({
      ProductIds: chain.products.filletC.Id,
      LocationIds: chain.store.Id,
      AsOf: new Date(Date.now() + 60_000).toISOString(),
    });
    const body = (await client(chain.retailer.key).get(`/Integration/Inventory?${query.toString()}`)).body as {
      products: { lots: { lotSerial: string; inventory: { quantityAvailable: number }[] }[] }[];
    };
    return body.products[0].lots.find((l) => l.lotSerial === chain.fillet)!.inventory[0].quantityAvailable;
  }

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

  /** Per consignee of an issued recall on the recalls page: its lot, then its figures from Shipped to Still out. */
  const figures = (recallId: string): Promise<Record<string, string[]>> =>
    page.$$eval(`#issued tbody[data-recall-id="${recallId}"] table.consignees tbody tr`, (rows) =>
      Object.fromEntries(
        rows.map((row) => [
          row.getAttribute('data-consignee'),
          [...row.querySelectorAll('td.lot, td.num')].map((td) => td.textContent),
        ]),
      ),
    );

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
      const issued = page.locator(`#issued tbody[data-recall-id="${filletRecall}"]`);
      await issued.waitFor();
      expect(await issued.locator('.state').allTextContents()).toEqual(['notified', 'notified']);
      expect(await issued.locator('.level').textContent()).toBe(
        'Level A: 100% of 1 consignee, 1 answer needed; 0 acknowledged: not met',
      );
      expect(await figures(filletRecall)).toEqual({
        [chain.retailer.name]: [chain.fillet, '30 kg', '0 kg', '0 kg', '0 kg', '0 kg', '0 kg', '30 kg'],
      });
      expect(await issued.locator('td.time').textContent()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d CES?T$/);

      // Received: the farm's recall; the processor answers it here (once per width: a later answer replaces
      // it), its answer per lot (10 on hand, 20 destroyed, 30 sold on of the 60 kg shipped) filled in.
      const notice = page.locator(`#received tbody[data-recall-id="${fishRecall}"]`);
      expect(await notice.textContent()).toContain(chain.farm.name);
      expect(await notice.textContent()).toMatch(/Whole cod · \S+: 10 kg at Processor dock/);
      const lot = notice.locator(`form.acknowledge tr[data-lot="${chain.lot}"]`);
      expect(
        await lot
          .locator('input')
          .all()
          .then((inputs) => Promise.all(inputs.map((i) => i.inputValue()))),
      ).toEqual(['10', '0', '20', '30']);
      expect(await lot.locator('td.still-out').textContent()).toBe('0 kg');
      // Destroyed at its own dock, or recorded nowhere: not at the retailer's store it keeps a record of.
      expect(await lot.locator('select[data-field="DestroyedAt"] option').allTextContents()).toEqual([
        'Not recorded',
        `Processor dock (${chain.dock.Id})`,
      ]);
      await lot.locator('input[data-field="OnHand"]').fill('10');
      // Each width answers differently, so the page is seen to show this answer, not the one before.
      const action = width === 1280 ? 'Quarantined at the dock.' : 'Quarantined; returning it to the farm.';
      await notice.locator('input.action-text').fill(action);
      await notice.locator('button[type=submit]').click();
      await page
        .locator(`#received tbody[data-recall-id="${fishRecall}"]`, {
          hasText: action,
        })
        .waitFor();
      expect(await notice.locator('.lot-answers li').allTextContents()).toEqual([
        `${chain.lot}: 10 kg on hand · 0 kg returned · 20 kg destroyed · 30 kg sold on; all 60 kg shipped accounted for`,
      ]);
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
      expect(await page.textContent('#recall-warning .effectiveness')).toContain(
        'Level A: 100% of 1 consignee, 1 answer needed; 0 acknowledged: not met. Still out: 30 kg of 30 kg shipped.',
      );

      // The farm sees the processor's answer, and the retailer's.
      const farm = (await client(chain.farm.key).get(`/Integration/Recalls/${fishRecall}`)).body;
      expect(
        farm.holders
          .filter((h: { state: string }) => h.state === 'acknowledged')
          .map((h: { account: string }) => h.account)
          .sort(),
      ).toEqual([chain.processor.name, chain.retailer.name].sort());
    });

    it('the recalls page shows the issuer its recall’s effectiveness, per consignee and in total, and downloads it', async () => {
      expect((await processorAnswersPerLot()).status).toBe(200);
      expect((await retailerAnswersPerLot()).status).toBe(200);
      await signIn('/recalls', chain.farm.key);
      const recall = page.locator(`#issued tbody[data-recall-id="${fishRecall}"]`);
      await recall.waitFor();
      // By hand, per consignee (lot, shipped, returned, destroyed, on hand, sold on, accounted for, still out):
      // the processor 60 of L, 0 + 20 + 10 + 30 = 60 accounted for, none out; the other buyer 20 of L, never
      // answered, all 20 out; the retailer (reached through the processor) 30 of F, 5 + 3 + 20 + 0 = 28, 2 out.
      expect(await figures(fishRecall)).toEqual({
        [chain.processor.name]: [chain.lot, '60 kg', '0 kg', '20 kg', '10 kg', '30 kg', '60 kg', '0 kg'],
        [chain.other.name]: [chain.lot, '20 kg', '0 kg', '0 kg', '0 kg', '0 kg', '0 kg', '20 kg'],
        [chain.retailer.name]: [chain.fillet, '30 kg', '5 kg', '3 kg', '20 kg', '0 kg', '28 kg', '2 kg'],
      });
      // In total: shipped 60 + 20 + 30 = 110, returned 5, destroyed 20 + 3 = 23, on hand 10 + 20 = 30, sold on
      // 30, accounted for 60 + 0 + 28 = 88, out 0 + 20 + 2 = 22.
      expect(await recall.locator('tr.total td').allTextContents()).toEqual([
        'Total of 3 consignees',
        '110 kg',
        '5 kg',
        '23 kg',
        '30 kg',
        '30 kg',
        '88 kg',
        '22 kg',
      ]);
      // Level A takes an answer from each of the 3; the processor and the retailer answered, the processor
      // alone for all it received (acted); the other buyer was reminded once, then overdue.
      expect(await recall.locator('.level').textContent()).toBe(
        'Level A: 100% of 3 consignees, 3 answers needed; 2 acknowledged: not met',
      );
      expect(await recall.locator('.counts').textContent()).toBe('Reached 3 · acknowledged 2 · acted 1 · overdue 1');
      expect(await recall.locator('.still-out').textContent()).toBe('Still out: 22 kg of 110 kg shipped');
      const consignee = (name: string) => recall.locator(`tr[data-consignee="${name}"]`);
      expect(await consignee(chain.processor.name).locator('.state').allTextContents()).toEqual(['acted']);
      expect(await consignee(chain.processor.name).locator('td.consignee').textContent()).toContain('tier 1, from you');
      expect(await consignee(chain.retailer.name).locator('.state').allTextContents()).toEqual(['acknowledged']);
      expect(await consignee(chain.retailer.name).locator('td.consignee').textContent()).toContain(
        `tier 2, passed on by ${chain.processor.name}`,
      );
      expect(await consignee(chain.other.name).locator('.state').allTextContents()).toEqual(['notified', 'overdue']);
      const followUp = (name: string) =>
        consignee(name)
          .locator('dl.follow-up')
          .evaluate((dl) => [...dl.children].map((child) => child.textContent));
      const TIME = expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d CES?T$/);
      expect(await followUp(chain.other.name)).toEqual(['notified', TIME, '1 reminder', TIME, 'overdue', TIME]);
      expect(await followUp(chain.retailer.name)).toEqual(['notified', TIME, 'reminders', 'none sent']);
      await screenshot(`recalls-issuer-${width}`);

      // The CSV holds the figures the page shows.
      const [csv] = await Promise.all([
        page.waitForEvent('download'),
        recall.locator('button.download[data-format="csv"]').click(),
      ]);
      expect(csv.suggestedFilename()).toBe(`recall-${fishRecall}-effectiveness.csv`);
      const [header, ...lines] = fs
        .readFileSync((await csv.path())!, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => line.split(','));
      const columns = ['Lot', 'Shipped', 'Returned', 'Destroyed', 'On Hand', 'Sold On', 'Accounted For', 'Outstanding'];
      expect(
        Object.fromEntries(
          lines.map((line) => [line[header.indexOf('Consignee')], columns.map((c) => line[header.indexOf(c)])]),
        ),
      ).toEqual({
        [chain.processor.name]: [chain.lot, '60', '0', '20', '10', '30', '60', '0'],
        [chain.other.name]: [chain.lot, '20', '0', '0', '0', '0', '0', '20'],
        [chain.retailer.name]: [chain.fillet, '30', '5', '3', '20', '0', '28', '2'],
      });
      const [xlsx] = await Promise.all([
        page.waitForEvent('download'),
        recall.locator('button.download[data-format="xlsx"]').click(),
      ]);
      expect(xlsx.suggestedFilename()).toBe(`recall-${fishRecall}-effectiveness.xlsx`);
      expect(
        fs
          .readFileSync((await xlsx.path())!)
          .subarray(0, 2)
          .toString(),
      ).toBe('PK'); // a zip: the workbook
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

    it('the issuer’s trace marks the recalled lot and the lots made from it that it sees, and says how effective its recall is', async () => {
      expect((await processorAnswersPerLot()).status).toBe(200);
      expect((await retailerAnswersPerLot()).status).toBe(200);
      await signIn('/trace', chain.farm.key);
      await page.fill('#product', chain.products.fishA.Id);
      await page.fill('#lot', chain.lot);
      await page.click('#trace button[type=submit]');
      await page.waitForSelector('#graph[data-drawn] svg');
      expect(await page.textContent('#recall-warning')).toMatch(
        /You recalled it on .*: “Listeria in a retained sample.” \(holders notified, not all acknowledged\)/,
      );
      // The figures of the recalls page's test above: 2 of 3 answered at level A, 22 of 110 kg still out.
      const effectiveness = page.locator(`#recall-warning .effectiveness[data-recall-id="${fishRecall}"]`);
      expect(await effectiveness.textContent()).toBe(
        'Your recall’s effectiveness: Level A: 100% of 3 consignees, 3 answers needed; 2 acknowledged: not met. ' +
          'Still out: 22 kg of 110 kg shipped. Figures per consignee',
      );
      expect(await effectiveness.locator('a').getAttribute('href')).toBe('/recalls');
      await screenshot(`trace-issuer-${width}`);
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

  it('a holder answers per lot from the recalls page: a refusal shows the API’s words, and the answer makes it acted, its destruction recorded', async () => {
    // The retailer starts from its answer of beforeAll (20 on hand, 5 returned, 3 destroyed of the 30 kg
    // of fillet shipped to it); its store holds 20 kg of the lot (30 received, 10 moved to its shop).
    expect((await retailerAnswersPerLot()).status).toBe(200);
    expect((await processorAnswersPerLot()).status).toBe(200);
    expect(await storeHolds()).toBe(20);
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn('/recalls', chain.retailer.key);
    const notice = page.locator(`#received tbody[data-recall-id="${fishRecall}"]`);
    const lot = notice.locator(`form.acknowledge tr[data-lot="${chain.fillet}"]`);
    await lot.waitFor();
    const field = (name: string) => lot.locator(`[data-field="${name}"]`);
    const fillFigures = async (figures: Record<'OnHand' | 'Returned' | 'Destroyed' | 'SoldOn', string>) => {
      for (const [name, value] of Object.entries(figures)) await field(name).fill(value);
    };
    const values = () =>
      lot
        .locator('input')
        .all()
        .then((inputs) => Promise.all(inputs.map((i) => i.inputValue())));
    // The previous answer fills the form in; of the 30 kg shipped, 20 + 5 + 3 = 28 are accounted for.
    expect(await lot.locator('td').nth(1).textContent()).toBe('30 kg');
    expect(await values()).toEqual(['20', '5', '3', '0']);
    expect(await lot.locator('td.still-out').textContent()).toBe('2 kg');
    expect(await notice.locator('.lot-answers li').allTextContents()).toEqual([
      `${chain.fillet}: 20 kg on hand · 5 kg returned · 3 kg destroyed · 0 kg sold on; 2 kg of 30 kg shipped still out`,
    ]);
    // Where it was destroyed: nowhere recorded, or one of its two locations.
    const [nowhere, ...places] = await field('DestroyedAt').locator('option').allTextContents();
    expect(nowhere).toBe('Not recorded');
    expect(places.sort()).toEqual([expect.stringMatching(/^Retail shop \(SHOP-/), `Retail store (${chain.store.Id})`]);

    // 25 kg destroyed at the store, which holds 20: the API refuses it, naming the field, and the page says so.
    await field('OnHand').fill('0');
    await field('Destroyed').fill('25');
    await field('DestroyedAt').selectOption(chain.store.Id);
    expect(await lot.locator('td.still-out').textContent()).toBe('0 kg');
    await notice.locator('input.action-text').fill('Destroyed at the store.');
    await notice.locator('form.acknowledge button[type=submit]').click();
    const refusal = notice.locator('form.acknowledge .form-message .message.error');
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe(
      `Lots[0].Destroyed: Destroyed 25 would record 25 more of ${chain.fillet} as destroyed at ${chain.store.Id}, which holds 20. ` +
        'Give at most 20, or leave DestroyedAt out to record nothing.',
    );
    expect(await field('Destroyed').getAttribute('aria-invalid')).toBe('true');
    await screenshot('recalls-answer-refused-1280');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await screenshot('recalls-answer-refused-1920');
    // Nothing of it is stored: the answer is the one before, the store holds what it held.
    const before = (await client(chain.retailer.key).get(`/Integration/Recalls/${fishRecall}`)).body;
    expect(before.acknowledgement.lots).toEqual([
      { lotSerial: chain.fillet, onHand: 20, returned: 5, destroyed: 3, soldOn: 0 },
    ]);
    expect(await storeHolds()).toBe(20);

    // 20 + 5 + 3 + 5 = 33 kg of the 30 shipped: the page says 3 kg over, the API refuses the lot's figures
    // together, and the page marks all four.
    await fillFigures({ OnHand: '20', Returned: '5', Destroyed: '3', SoldOn: '5' });
    expect(await lot.locator('td.still-out').textContent()).toBe('3 kg over');
    await notice.locator('form.acknowledge button[type=submit]').click();
    await refusal.filter({ hasText: 'more than the 30 shipped' }).waitFor();
    expect(await refusal.textContent()).toBe(
      `Lots[0]: OnHand 20 + Returned 5 + Destroyed 3 + SoldOn 5 = 33 KGM of ${chain.fillet}, more than the 30 shipped ` +
        'to you: the figures say what became of what you received, together at most 30.',
    );
    for (const name of ['OnHand', 'Returned', 'Destroyed', 'SoldOn'])
      expect(await field(name).getAttribute('aria-invalid')).toBe('true');
    await screenshot('recalls-answer-over-1920');
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot('recalls-answer-over-1280');
    await page.setViewportSize({ width: 1920, height: 1080 });
    expect((await client(chain.retailer.key).get(`/Integration/Recalls/${fishRecall}`)).body.acknowledgement).toEqual(
      before.acknowledgement,
    );

    // 12 on hand, 5 returned, 8 destroyed at the store, 5 sold on: all 30 kg accounted for.
    await fillFigures({ OnHand: '12', Returned: '5', Destroyed: '8', SoldOn: '5' });
    expect(await lot.locator('td.still-out').textContent()).toBe('0 kg');
    await notice.locator('input.action-text').fill('Pulled from the shelves; 8 kg destroyed at the store.');
    await notice.locator('form.acknowledge button[type=submit]').click();
    await notice.locator('.lot-answers li', { hasText: 'all 30 kg shipped accounted for' }).waitFor();
    expect(await notice.locator('.lot-answers li').allTextContents()).toEqual([
      `${chain.fillet}: 12 kg on hand · 5 kg returned · 8 kg destroyed · 5 kg sold on; all 30 kg shipped accounted for`,
    ]);
    expect(await notice.locator('.state').textContent()).toBe('acknowledged');
    // Answered per lot, it says no total: its lots' figures are the answer.
    expect(await notice.textContent()).toContain(': Pulled from the shelves; 8 kg destroyed at the store.');
    expect(await notice.textContent()).not.toContain('holds 12');
    // The answer fills the form in again; where it was destroyed is recorded, not asked again.
    expect(await values()).toEqual(['12', '5', '8', '5']);
    expect(await notice.locator('input.action-text').inputValue()).toBe(
      'Pulled from the shelves; 8 kg destroyed at the store.',
    );
    expect(await field('DestroyedAt').inputValue()).toBe('');
    expect(await notice.locator('form.acknowledge .form-message').textContent()).toBe('');
    await screenshot('recalls-answer-1920');
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot('recalls-answer-1280');
    // The 8 kg destroyed are recorded at the store: it holds 20 - 8 = 12.
    expect(await storeHolds()).toBe(12);

    // The farm sees the retailer acted. By hand, the retailer 30 of F: 5 + 8 + 12 + 5 = 30 accounted for,
    // none out; in total shipped 60 + 20 + 30 = 110, returned 5, destroyed 20 + 8 = 28, on hand 10 + 12 = 22,
    // sold on 30 + 5 = 35, accounted for 60 + 0 + 30 = 90, out 0 + 20 + 0 = 20.
    await signIn('/recalls', chain.farm.key);
    const recall = page.locator(`#issued tbody[data-recall-id="${fishRecall}"]`);
    await recall.waitFor();
    expect((await figures(fishRecall))[chain.retailer.name]).toEqual([
      chain.fillet,
      '30 kg',
      '5 kg',
      '8 kg',
      '12 kg',
      '5 kg',
      '30 kg',
      '0 kg',
    ]);
    expect(await recall.locator(`tr[data-consignee="${chain.retailer.name}"] .state`).allTextContents()).toEqual([
      'acted',
    ]);
    expect(await recall.locator('.counts').textContent()).toBe('Reached 3 · acknowledged 2 · acted 2 · overdue 1');
    expect(await recall.locator('tr.total td').allTextContents()).toEqual([
      'Total of 3 consignees',
      '110 kg',
      '5 kg',
      '28 kg',
      '22 kg',
      '35 kg',
      '90 kg',
      '20 kg',
    ]);
    expect(await recall.locator('.still-out').textContent()).toBe('Still out: 20 kg of 110 kg shipped');
  });

  it('a closed recall reads closed: closed from the issuer’s page, on the holder’s without an answer form, and on the trace page', async () => {
    // The processor closes its fillet recall from the page: its level is not met (the retailer never
    // answered it), so the page asks why, and the API takes the close with the reason.
    await signIn('/recalls', chain.processor.key);
    const issued = page.locator(`#issued tbody[data-recall-id="${filletRecall}"]`);
    await issued.waitFor();
    const why = issued.locator('input.close-reason');
    expect(await why.getAttribute('required')).toBe('');
    await why.fill('Closed for the page test.');
    await issued.locator('form.close button[type=submit]').click();
    await issued.locator('.state.closed').waitFor();
    // The recall's state, then its holder's progress (the retailer never answered); no close any more.
    expect(await issued.locator('.state').allTextContents()).toEqual(['closed', 'notified']);
    expect(await issued.locator('div.closed').textContent()).toMatch(/, level not met: Closed for the page test\.$/);
    expect(await issued.locator('form.close').count()).toBe(0);
    const fillet = (await client(chain.processor.key).get(`/Integration/Recalls/${filletRecall}`)).body;
    expect(fillet.closed).toMatchObject({ reason: 'Closed for the page test.', levelMet: false });

    expect(
      (
        await client(chain.farm.key).post(`/Integration/Recalls/${fishRecall}/close`, {
          Reason: 'Closed for the page test.',
        })
      ).status,
    ).toBe(200);
    await signIn('/recalls', chain.retailer.key);
    const notice = page.locator(`#received tbody[data-recall-id="${filletRecall}"]`);
    await notice.waitFor();
    expect(await notice.locator('.state').textContent()).toBe('closed');
    expect(await notice.locator('form.acknowledge').count()).toBe(0);

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
