import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's chromium (`apt-get install -y chromium`; `.ci/run` installs it when missing). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface HeadlessBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Headless Chromium with a fresh profile, no sandbox (CI runs as root) and nothing that talks
 * to the network on its own (updates, sync, safe-browsing lists).
 */
export async function launchHeadlessChromium(): Promise<HeadlessBrowser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`No browser at ${CHROMIUM_PATH}: install it with \`apt-get install -y chromium\`.`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
