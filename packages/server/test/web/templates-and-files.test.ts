import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtinTemplates } from '../../src/domain/templates/builtin/index.js';
import { launchBrowser, newPage, screenshots } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '../../../engine/test/golden/mspdi/task-links-project2019-mspdi.xml');
const screenshot = screenshots('templates-and-files');

describe('the web app: projects from templates and files, saved versions, exports, leveling', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    const created = await server.cli('user', 'create', '--email', 'ada@example.com', '--name', 'Ada', '--password', 'correct horse battery', '--json');
    expect(created.code, created.stderr).toBe(0);
    key = ((await server.cli('key', 'create', '--email', 'ada@example.com', '--scope', 'write', '--json')).json as { key: string }).key;
    page = await newPage(browser);
    await page.goto(`${server.url}/sign-in`);
    await page.getByLabel('E-mail').fill('ada@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('a project from a template in German, then a saved version restored after a change', async () => {
    const hiring = builtinTemplates.find((t) => t.slug === 'hiring')!;
    await page.getByLabel('Plan').selectOption('template');
    await page.getByLabel('Language').selectOption('de');
    await page.getByLabel('Template').selectOption('builtin:hiring');
    await page.getByLabel('Start').fill('2027-01-04');
    await screenshot(page, '01-from-template');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: hiring.texts.de.name }).waitFor();
    await page.getByText(hiring.texts.de.tasks['job-description']!, { exact: true }).first().waitFor();
    await screenshot(page, '02-german-plan');

    const projectId = new URL(page.url()).pathname.split('/')[2]!;
    const { body } = await server.request<{ project: { key: string }; tasks: { id: string; name: string }[] }>('GET', `/api/projects/${projectId}`, { key });
    await page.getByRole('button', { name: 'Versions and files' }).click();
    const panel = page.getByRole('complementary', { name: 'Versions and files' });
    await panel.getByLabel('Name of the version (optional)').fill('As planned');
    await panel.getByRole('button', { name: 'Save this version' }).click();
    await panel.getByText('As planned').waitFor();
    expect(await panel.getByRole('link', { name: 'Microsoft Project (.xml)' }).getAttribute('href')).toBe(`/api/projects/${projectId}/export?format=mspdi`);

    // A change through the API, then the version restored in the web app.
    const first = body.tasks[1]!;
    await server.request('PATCH', `/api/projects/${projectId}/tasks/${first.id}`, { key, body: { name: 'Renamed' } });
    await page.reload();
    await page.getByText('Renamed', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'Versions and files' }).click();
    await panel.getByRole('listitem').filter({ hasText: 'As planned' }).getByRole('button', { name: 'Restore…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(`Type ${body.project.key} to confirm`).fill(body.project.key);
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await page.getByText(first.name, { exact: true }).first().waitFor();
    await expect.poll(() => page.getByText('Renamed', { exact: true }).count()).toBe(0);
    await panel.getByText('Before restore').waitFor();
  });

  test('a calendar made in the web app, in Tokyo, with a holiday: the plan moves and shows its own days', async () => {
    const { body: created } = await server.request<{ project: { id: string } }>('POST', '/api/projects', { key, body: { name: 'Tokyo launch', startDate: '2027-03-01' } });
    const projectId = created.project.id;
    await server.request('POST', `/api/projects/${projectId}/tasks`, { key, body: { name: 'Prepare', durationMin: 960 } });
    await page.goto(`${server.url}/projects/${projectId}`);
    await page.getByRole('button', { name: 'Calendars' }).click();
    const panel = page.getByRole('complementary', { name: 'Calendars' });
    await panel.getByLabel('Calendar name').fill('Tokyo office');
    await panel.getByLabel('Time zone').fill('Asia/Tokyo');
    await panel.getByRole('button', { name: 'Create calendar' }).click();
    await panel.getByRole('heading', { name: /Tokyo office/ }).waitFor();
    await panel.getByLabel('The project works on').selectOption({ label: 'Tokyo office (Asia/Tokyo)' });
    await panel.getByText('The project works on that calendar now. The plan was rescheduled.').waitFor();
    const holidays = panel.getByRole('form', { name: 'New holiday in Tokyo office' });
    await holidays.getByLabel('Holiday').fill('Founding day');
    await holidays.getByLabel('From').fill('2027-03-01');
    await holidays.getByRole('button', { name: 'Add holiday' }).click();
    await panel.getByText(/Founding day: 2027-03-01/).waitFor();
    await screenshot(page, '04-calendars');

    // A calendar nothing works on is deleted from the panel; the project's own is refused, saying why.
    await panel.getByLabel('Calendar name').fill('Spare');
    await panel.getByRole('button', { name: 'Create calendar' }).click();
    await panel.getByRole('heading', { name: /Spare/ }).waitFor();
    const dialog = page.getByRole('dialog');
    await panel.getByRole('region', { name: 'Calendar Spare' }).getByRole('button', { name: 'Delete calendar' }).click();
    await dialog.getByLabel('Type Spare to confirm').fill('Spare');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await panel.getByText('Calendar "Spare" deleted.').waitFor();
    // The notice comes before the plan is read again: the list follows a moment later.
    await expect.poll(() => panel.getByRole('region', { name: 'Calendar Spare' }).count()).toBe(0);
    await panel.getByRole('region', { name: 'Calendar Tokyo office' }).getByRole('button', { name: 'Delete calendar' }).click();
    await dialog.getByLabel('Type Tokyo office to confirm').fill('Tokyo office');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByText(/in use \(the project\)/).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await panel.getByRole('region', { name: 'Calendar Tokyo office' }).waitFor();

    const task = async () => (await server.request<{ tasks: { name: string; startAt: string }[] }>('GET', `/api/projects/${projectId}`, { key })).body.tasks[0]!;
    // Tuesday 2 March, 08:00 in Tokyo: the holiday moved it a day, the zone nine hours.
    expect((await task()).startAt).toBe('2027-03-01T23:00:00.000Z');
    // The grid shows the task's own day, 2 March, not the UTC day before.
    const row = page.getByRole('row').filter({ hasText: 'Prepare' });
    await expect.poll(() => row.textContent()).toContain(new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' }).format(new Date(Date.UTC(2027, 2, 2))));

    // An uncertain duration: the page says how sure the finish is (a PERT forecast).
    const { body: plan } = await server.request<{ tasks: { id: string; key: string }[] }>('GET', `/api/projects/${projectId}`, { key });
    await server.request('PATCH', `/api/projects/${projectId}/tasks/${plan.tasks[0]!.id}`, { key, body: { durationOptimisticMin: 480, durationPessimisticMin: 4800 } });
    await page.reload();
    await page.getByText(/80 % sure by/).waitFor();

    // Two edits in a row: the first plan's forecast, answering last (held here, and marked
    // with a year no plan has), is not shown over the second's.
    let release: (() => Promise<void>) | undefined;
    await page.route('**/forecast', async (route) => {
      if (release) return route.continue();
      const response = await route.fetch();
      const { forecast } = (await response.json()) as { forecast: Record<string, unknown> };
      release = () => route.fulfill({ response, json: { forecast: { ...forecast, finishAt: '2099-06-01T17:00:00.000Z', p80FinishAt: '2099-06-02T17:00:00.000Z' } } });
    });
    const duration = page.getByLabel(`Duration of ${plan.tasks[0]!.key} in working days`);
    await row.getByRole('gridcell', { name: '2 d', exact: true }).dblclick();
    await duration.fill('3');
    await duration.press('Enter');
    await expect.poll(() => release !== undefined).toBe(true);
    const second = page.waitForResponse((response) => response.url().endsWith('/forecast'));
    await row.getByRole('gridcell', { name: '3 d', exact: true }).dblclick();
    await duration.fill('4');
    await duration.press('Enter');
    await second;
    await release!();
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(await page.getByText(/80 % sure by/).textContent()).not.toContain('2099');
  });

  test('two tasks on one person are leveled from the project page: previewed first, applied, and undone', async () => {
    const { body: created } = await server.request<{ project: { id: string } }>('POST', '/api/projects', { key, body: { name: 'Busy week', startDate: '2027-03-01' } });
    const projectId = created.project.id;
    const { body: me } = await server.request<{ user: { id: string } }>('GET', '/api/auth/me', { key });
    const { body: plan } = await server.request<{ tasks: { id: string; key: string }[] }>('POST', `/api/projects/${projectId}/tasks`, {
      key,
      body: { createTasks: [{ name: 'Write the brief', durationMin: 480 }, { name: 'Review the budget', durationMin: 480 }] },
    });
    for (const task of plan.tasks) await server.request('PUT', `/api/projects/${projectId}/tasks/${task.id}/assignees`, { key, body: { userIds: [me.user.id] } });
    const delays = async () => (await server.request<{ tasks: { levelingDelayMin: number }[] }>('GET', `/api/projects/${projectId}`, { key })).body.tasks.map((task) => task.levelingDelayMin);

    await page.goto(`${server.url}/projects/${projectId}`);
    await page.getByRole('button', { name: 'Level resources' }).click();
    const preview = page.getByRole('status', { name: 'Resource leveling' });
    await preview.getByText(`Leveling delays 1 task (${plan.tasks[1]!.key})`).waitFor();
    expect(await delays()).toEqual([0, 0]); // a preview changes nothing
    await screenshot(page, '05-leveling-preview');
    await preview.getByRole('button', { name: 'Apply leveling' }).click();
    await expect.poll(delays).toEqual([0, 480]);
    await page.getByRole('button', { name: 'Undo leveling' }).click();
    await expect.poll(delays).toEqual([0, 0]);
  });

  test('a crane team added in the resources panel is assigned from the task drawer and leveled within its max. units', async () => {
    const { body: created } = await server.request<{ project: { id: string } }>('POST', '/api/projects', { key, body: { name: 'Two lifts', startDate: '2027-03-01' } });
    const projectId = created.project.id;
    const { body: plan } = await server.request<{ tasks: { id: string; key: string }[] }>('POST', `/api/projects/${projectId}/tasks`, {
      key,
      body: { createTasks: [{ name: 'Lift the beams', durationMin: 480 }, { name: 'Lift the roof', durationMin: 480 }] },
    });
    const assignments = async () => (await server.request<{ assignments: unknown[] }>('GET', `/api/projects/${projectId}`, { key })).body.assignments.length;

    await page.goto(`${server.url}/projects/${projectId}`);
    await page.getByRole('button', { name: 'Resources', exact: true }).click();
    const panel = page.getByRole('complementary', { name: 'Resources' });
    const addForm = panel.getByRole('form', { name: 'New resource' });
    await addForm.getByLabel('Resource name').fill('Cranes');
    await addForm.getByLabel('Max. units (%)').fill('200');
    await addForm.getByRole('button', { name: 'Add resource' }).click();
    await panel.getByText('"Cranes" added').waitFor();
    await page.getByRole('button', { name: 'Close the resources' }).click();

    for (const [index, name] of ['Lift the beams', 'Lift the roof'].entries()) {
      await page.getByRole('row').filter({ hasText: name }).getByRole('gridcell').first().dblclick();
      const drawer = page.getByRole('complementary', { name: /Task/ });
      await drawer.getByRole('checkbox', { name: 'Cranes' }).click();
      await expect.poll(assignments).toBe(index + 1);
      await page.getByRole('button', { name: 'Close the task' }).click();
    }

    // Two cranes: both lifts on Monday. One crane: the second lift waits.
    const preview = page.getByRole('status', { name: 'Resource leveling' });
    await page.getByRole('button', { name: 'Level resources' }).click();
    await preview.getByText('Nothing to level').waitFor();
    await page.getByRole('button', { name: 'Resources', exact: true }).click();
    const row = panel.getByRole('form', { name: 'Resource Cranes' });
    await row.getByLabel('Max. units (%)').fill('100');
    await row.getByRole('button', { name: 'Save' }).click();
    await panel.getByText('"Cranes" saved (100 %).').waitFor();
    await screenshot(page, '06-resources');
    await page.getByRole('button', { name: 'Level resources' }).click();
    await preview.getByText(`Leveling delays 1 task (${plan.tasks[1]!.key})`).waitFor();
  });

  test('a Microsoft Project file imports into a project that opens with its tasks; a project is duplicated from the list', async () => {
    await page.getByRole('link', { name: 'Gantry' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    await page.getByLabel('Plan').selectOption('import');
    await page.getByLabel('File').setInputFiles({ name: 'plan.xml', mimeType: 'application/xml', buffer: readFileSync(FIXTURE) });
    await page.getByLabel('Project name').fill('From Project');
    await page.getByRole('button', { name: 'Import' }).click();
    const open = page.getByRole('button', { name: 'Open the project' });
    await Promise.race([open.waitFor().then(() => open.click()), page.getByRole('heading', { name: 'From Project' }).waitFor()]);
    await page.getByRole('heading', { name: 'From Project' }).waitFor();
    await page.getByText('Task 1', { exact: true }).first().waitFor();
    await screenshot(page, '03-imported');

    await page.getByRole('link', { name: 'Gantry' }).click();
    await page.getByRole('row').filter({ hasText: 'From Project' }).getByRole('button', { name: 'Duplicate' }).click();
    await page.getByRole('heading', { name: 'From Project (copy)' }).waitFor();
  });
});
