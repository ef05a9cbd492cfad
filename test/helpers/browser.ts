import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium (apt-get install chromium; .ci/run installs it): playwright-core downloads no browser. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Each context's own profile folder, removed by closeChromium. */
const profiles = new WeakMap<BrowserContext, string>();

/** Where the browser's reader is: pages show times in its zone, written the way its locale writes them. */
export interface Reader {
  timezoneId?: string;
  locale?: string;
}

/**
 * Headless Chromium on a fresh profile folder named after `name` (a persistent context is how Playwright
 * takes a --user-data-dir of our choosing), accepting downloads. Close it with closeChromium.
 */
export async function launchChromium(name: string, reader: Reader = {}): Promise<BrowserContext> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-chromium-`));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      acceptDownloads: true,
      ...reader,
    });
    profiles.set(context, profile);
    return context;
  } catch (error) {
    fs.rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}

export async function closeChromium(context: BrowserContext | undefined): Promise<void> {
  if (!context) return;
  await context.close();
  const profile = profiles.get(context);
  if (profile) fs.rmSync(profile, { recursive: true, force: true });
}

/** What a page did wrong while a test used it: its scripts' errors, and requests that left the service. */
export interface PageFaults {
  errors: string[];
  foreign: string[];
}

/**
 * Records a page's faults: an error its scripts log or throw (not the failed-resource line Chromium logs
 * for a 4xx answer the page shows), and any request to somewhere other than `origin`.
 */
export function watchFaults(page: Page, origin: string): PageFaults {
  const faults: PageFaults = { errors: [], foreign: [] };
  page.on('request', (r) => {
    if (!r.url().startsWith(origin) && !/^(data|blob):/.test(r.url())) faults.foreign.push(r.url());
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text()))
      faults.errors.push(message.text());
  });
  page.on('pageerror', (error) => faults.errors.push(error.message));
  return faults;
}
