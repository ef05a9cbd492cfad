import type { BrowserContext } from 'playwright-core';
import { createAccount } from '../factories/accounts';
import { closeChromium, launchChromium } from '../helpers/browser';
import { apiUrl, request } from '../helpers/http';

type Doc = { paths: Record<string, Record<string, { operationId: string }>> };

describe('GET /docs', () => {
  let context: BrowserContext;

  beforeAll(async () => {
    context = await launchChromium('docs');
  }, 60_000);

  afterAll(async () => {
    await closeChromium(context);
  });

  it('serves an HTML page without a key', async () => {
    const response = await request('GET', '/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.text).toContain('/docs/swagger-ui-bundle.js');
  });

  it('lists every operation of /openapi.json, loading nothing from outside the service', async () => {
    const doc = (await request<Doc>('GET', '/openapi.json')).body;
    const expected = Object.entries(doc.paths)
      .flatMap(([p, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${p}`))
      .sort();

    const page = await context.newPage();
    const foreign: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(apiUrl()) && !r.url().startsWith('data:')) foreign.push(r.url());
    });
    await page.goto(`${apiUrl()}/docs`);
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    const listed = await page.$$eval('.opblock', (blocks) =>
      blocks.map(
        (b) =>
          `${b.querySelector('.opblock-summary-method')?.textContent?.trim()} ${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
      ),
    );
    expect([...listed].sort()).toEqual(expected);
    // The page opens on the business routes, not on the health checks.
    const groups = await page.$$eval('.opblock-tag', (tags) => tags.map((t) => t.getAttribute('data-tag')));
    expect(groups.slice(0, 3)).toEqual(['Events', 'Locations', 'Products']);
    expect(groups.at(-1)).toBe('Metrics');
    expect(await page.locator('button.authorize').first().isVisible()).toBe(true);
    if (process.env.DOCS_SCREENSHOT) await page.screenshot({ path: process.env.DOCS_SCREENSHOT, fullPage: true });
    expect(foreign).toEqual([]);
    await page.close();
  });

  it('takes an API key in "Authorize" and runs an operation from the page', async () => {
    const account = await createAccount('docs');
    const page = await context.newPage();
    await page.goto(`${apiUrl()}/docs`);
    await page.locator('button.authorize').first().click();
    await page.locator('.modal-ux input[type=text], .modal-ux input[type=password]').first().fill(account.key);
    await page.locator('.modal-ux button.authorize').click();
    await page.locator('.modal-ux button.btn-done').click();

    const operation = page.locator('#operations-Account-getIntegrationAccount');
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.try-out__btn').click();
    await operation.locator('button.execute').click();
    const status = operation.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor({ timeout: 15_000 });
    expect((await status.textContent())?.trim()).toBe('200');
    expect(await operation.locator('.live-responses-table .microlight').first().textContent()).toContain(account.name);
    await page.close();
  });
});
