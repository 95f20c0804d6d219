// The system Chromium, driven by playwright-core, for the tests that need a real browser: .ci/run
// installs it; a laptop without it skips those tests with a line saying how to get it.

import { existsSync } from 'node:fs';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';
const missing = !existsSync(CHROMIUM);

/** Whether a file's browser tests are skipped: only outside CI, where a missing browser must fail instead. */
export function skipWithoutChromium(what: string): boolean {
  if (missing && !inCi) console.warn(`Skipping ${what}: ${CHROMIUM} is not installed (apt-get install -y chromium).`);
  return missing && !inCi;
}

/** A headless Chromium with its profile in `userDataDir`, quiet on the network, at `viewport`. */
export function launchChromium(userDataDir: string, viewport: { width: number; height: number }): Promise<BrowserContext> {
  if (missing) throw new Error(`${CHROMIUM} is not installed: .ci/run installs it (apt-get install -y chromium)`);
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport,
    timeout: 60_000,
  });
}
