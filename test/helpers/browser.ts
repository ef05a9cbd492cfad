import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

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

/**
 * Headless Chromium on a fresh profile folder named after `name` (a persistent context is how Playwright
 * takes a --user-data-dir of our choosing), accepting downloads. Close it with closeChromium.
 */
export async function launchChromium(name: string): Promise<BrowserContext> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-chromium-`));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      acceptDownloads: true,
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
