import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

/**
 * Debian's chromium (`apt-get install chromium`; .ci/run installs it). Without it the browser
 * tests skip, except under CI=true, where a missing browser fails the run.
 */
export const CHROMIUM = '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);
/** Browser suites run when the browser is there, and under CI=true always (and fail without it). */
export const RUN_BROWSER_TESTS = HAS_CHROMIUM || process.env.CI === 'true';

/**
 * One way to start the browser for every suite. Only loopback resolves: any other host name
 * fails at once inside the browser (no DNS lookup that waits on an unreachable resolver, no
 * request leaving the machine), so a page's external images, scripts and links cost nothing.
 */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
    ],
  });
}

/** The two screens the reader is judged on (docs/reader.md): a laptop and a phone (390x844 at 2x, touch). */
export const DESKTOP = { viewport: { width: 1280, height: 800 } };
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
