import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium, or `CHROMIUM_PATH`; the browser tests drive it with playwright-core. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why the browser tests are skipped here, or undefined when Chromium is installed. */
export const chromiumMissing: string | undefined = existsSync(CHROMIUM_PATH)
  ? undefined
  : `Chromium not found at ${CHROMIUM_PATH} (apt install chromium, or set CHROMIUM_PATH): browser tests skipped`;

if (chromiumMissing) console.warn(chromiumMissing);

/** Starts headless Chromium (no sandbox: CI and containers run as root). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
}
