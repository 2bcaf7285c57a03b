import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium, headless, with nothing reaching beyond loopback. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * A page of a fresh browser context (its own cookies), as a desktop user sees the web app.
 * `bypassCSP` lets a test inject a checker (axe-core) past the app's Content-Security-Policy.
 */
export async function newPage(browser: Browser, options: { bypassCSP?: boolean } = {}): Promise<Page> {
  return (await browser.newContext({ viewport: { width: 1400, height: 800 }, locale: 'en-US', ...options })).newPage();
}

/** Where a test's screenshots go, kept as test artifacts (ignored by git): test-artifacts/web/<group>-<name>.png. */
export function screenshots(group: string): (page: Page, name: string) => Promise<unknown> {
  const directory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test-artifacts/web');
  mkdirSync(directory, { recursive: true });
  return (page, name) => page.screenshot({ path: path.join(directory, `${group}-${name}.png`) });
}

/** Signs in through the web app's sign-in page, until the projects page shows. */
export async function signInThroughPage(page: Page, serverUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${serverUrl}/sign-in`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Projects' }).waitFor();
}
