import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, newPage } from '../support/browser.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Every WCAG 2.1 A and AA rule axe-core checks, as "rule: where" lines (empty when the page passes). */
async function violations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axeSource });
  // Runs in the page: its globals are the browser's (axe, document), not Node's.
  const found = await page.evaluate(async () => {
    const { axe, document } = globalThis as unknown as { axe: { run(context: unknown, options: object): Promise<{ violations: AxeViolation[] }> }; document: unknown };
    return (await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })).violations;
  });
  return found.map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).slice(0, 3).join(', ')}`);
}

// Accessibility of the web app's pages: labels, names, roles, contrast (docs/adr/0009-web-app.md).
describe('the web app passes the WCAG 2.1 AA checks of axe-core', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let projectId: string;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    page = await newPage(browser, { bypassCSP: true });
    const { key } = await provisionUser(server, 'reader@example.com');
    expect((await server.cli('user', 'create', '--email', 'a11y@example.com', '--name', 'Ada', '--password', 'correct horse battery')).code).toBe(0);
    projectId = (await server.request<{ project: { id: string } }>('POST', '/api/projects', { key, body: { name: 'Checked' } })).body.project.id;
    expect((await server.cli('project', 'add-member', '--project', projectId, '--email', 'a11y@example.com', '--role', 'owner')).code).toBe(0);
    await server.request('POST', `/api/projects/${projectId}/tasks`, {
      key,
      body: { createTasks: [{ id: '00000000-0000-4000-8000-000000000001', name: 'Phase', type: 'summary' }, { name: 'Work', parentId: '00000000-0000-4000-8000-000000000001', durationMin: 960 }, { name: 'Done', type: 'milestone' }] },
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('the checker finds what it should (a picture without a text)', async () => {
    await page.setContent('<!doctype html><html lang="en"><head><title>Probe</title></head><body><main><img src="data:,"></main></body></html>');
    expect((await violations(page)).map((line) => line.split(' ')[0])).toContain('image-alt');
  });

  test('before signing in: sign-in, sign-up and password pages', async () => {
    for (const path of ['/sign-in', '/sign-up', '/forgot-password']) {
      await page.goto(`${server.url}${path}`);
      await page.getByRole('heading').first().waitFor();
      expect(await violations(page), path).toEqual([]);
    }
  });

  test('signed in: projects (from a template too), the Gantt chart with a task drawer and its panels, settings', async () => {
    await page.goto(`${server.url}/sign-in`);
    await page.getByLabel('E-mail').fill('a11y@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    expect(await violations(page), 'projects').toEqual([]);

    await page.getByRole('link', { name: 'Checked' }).click();
    await page.locator('.gantt-row .bar').first().waitFor();
    // A double-click on a cell that does not edit in place (the key) opens the task.
    await page.getByRole('row').filter({ hasText: 'Work' }).getByRole('gridcell').first().dblclick();
    await page.getByRole('complementary', { name: /Task/ }).waitFor();
    expect(await violations(page), 'project with a task drawer').toEqual([]);

    await page.getByRole('button', { name: 'Close the task' }).click();
    await page.getByRole('button', { name: 'Members' }).click();
    await page.getByRole('complementary', { name: 'Members' }).waitFor();
    expect(await violations(page), 'members panel').toEqual([]);
    for (const panel of ['Resources', 'Calendars', 'Versions and files']) {
      await page.getByRole('button', { name: panel, exact: true }).click();
      await page.getByRole('complementary', { name: panel }).waitFor();
      expect(await violations(page), `${panel} panel`).toEqual([]);
    }
    await page.getByRole('link', { name: 'Gantry' }).click();
    await page.getByLabel('Plan').selectOption('template');
    await page.getByLabel('Template').locator('option').first().waitFor({ state: 'attached' });
    expect(await violations(page), 'a project from a template').toEqual([]);

    await page.getByRole('link', { name: 'Ada' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    expect(await violations(page), 'settings').toEqual([]);
  });
});
