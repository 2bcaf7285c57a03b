import type { DeliveredEventType } from '@gantry/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, newPage, screenshots } from '../support/browser.js';
import { startReceiver } from '../support/receiver.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

interface PlanTaskLite {
  id: string;
  key: string;
  name: string;
  startAt: string;
  constraintKind: string;
}

describe('the web app, from sign-up to a first plan', () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_WEBHOOK_ALLOW_PRIVATE: '1' });
    receiver = await startReceiver();
    browser = await launchBrowser();
    page = await newPage(browser);
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await server?.close();
  });

  const screenshot = screenshots('sign-up-to-plan');
  const shot = (name: string) => screenshot(page, name);

  test('sign up, verify, plan with links and drags, delete with confirmation; every change is announced, and a key still cannot delete', async () => {
    await page.goto(`${server.url}/sign-up`);
    await page.getByLabel('Name').fill('Grace Hopper');
    await page.getByLabel('E-mail').fill('grace@example.com');
    await page.getByLabel(/^Password/).fill('cobol-forever-1959');
    await shot('01-sign-up');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();

    const mail = (await server.store.q.outbox.listMail({ pendingOnly: false, limit: 100 })).find((row) => row.to_address === 'grace@example.com');
    const link = /https?:\/\/\S+\/verify-email\?token=[\w-]+/.exec(mail?.body ?? '')?.[0];
    expect(link, mail?.body).toBeDefined();
    await page.goto(link!);
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    // The link opened again while signed in (a second click in the mail) takes the person on.
    await page.goto(link!);
    await page.getByRole('heading', { name: 'Your e-mail address is already verified' }).waitFor();
    await page.getByRole('link', { name: 'Go to your projects' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();

    // The same person's key, to watch the plan through the API and subscribe to its events.
    const created = await server.cli('key', 'create', '--email', 'grace@example.com', '--scope', 'write', '--json');
    const key = (created.json as { key: string }).key;
    const { body: workspaces } = await server.request<{ workspaces: { id: string }[] }>('GET', '/api/workspaces', { key });
    const subscribed = await server.request('POST', '/api/webhooks', { key, body: { url: receiver.url, events: ['*'], workspaceId: workspaces.workspaces[0]!.id } });
    expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(201);

    await page.getByLabel('Project name').fill('Moon landing');
    await page.getByLabel('Start').fill('2027-01-04');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: /Moon landing/ }).waitFor();
    const projectId = new URL(page.url()).pathname.split('/')[2]!;

    for (const [name, days] of [['Design', '2'], ['Build', '3']] as const) {
      await page.getByLabel('Task name').fill(name);
      await page.getByLabel('Duration (days)').fill(days);
      await page.getByRole('button', { name: 'Add task' }).click();
      await page.getByRole('gridcell', { name, exact: true }).waitFor();
    }
    const plan = async () => (await server.request<{ tasks: PlanTaskLite[]; dependencies: { id: string }[] }>('GET', `/api/projects/${projectId}`, { key })).body;
    const [design, build] = (await plan()).tasks;
    expect([design?.name, build?.name]).toEqual(['Design', 'Build']);
    expect(build!.startAt).toBe(design!.startAt);

    // Link by dragging from Design's handle onto Build's bar.
    await page.getByRole('row').filter({ hasText: 'Design' }).click();
    const handle = page.locator('.gantt-row.selected .link-handle');
    const from = (await handle.boundingBox())!;
    const to = (await page.locator(`[data-task-id="${build!.id}"]`).boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
    await page.mouse.up();
    await page.locator('svg.links path.link').waitFor();
    await expect.poll(async () => (await plan()).dependencies.length).toBe(1);
    const linked = (await plan()).tasks.find((task) => task.id === build!.id)!;
    expect(Date.parse(linked.startAt)).toBeGreaterThan(Date.parse(design!.startAt));

    // A baseline of this plan, shown under the bars.
    await page.getByRole('button', { name: 'Save baseline' }).click();
    await page.locator('.baseline-bar').first().waitFor();

    // While Design is dragged a day later, the engine in the browser already shows Build pushed
    // along; nothing is saved until the drop, and a drop back where it was saves nothing.
    await page.getByLabel('Zoom').selectOption('day');
    const buildBar = page.locator(`[data-task-id="${build!.id}"]`);
    const buildX = (await buildBar.boundingBox())!.x;
    const designBar = (await page.locator(`[data-task-id="${design!.id}"]`).boundingBox())!;
    await page.mouse.move(designBar.x + 5, designBar.y + designBar.height / 2);
    await page.mouse.down();
    await page.mouse.move(designBar.x + 5 + 36, designBar.y + designBar.height / 2, { steps: 6 });
    await expect.poll(async () => (await buildBar.boundingBox())!.x).toBeCloseTo(buildX + 36, 0);
    expect((await plan()).tasks.find((task) => task.id === design!.id)?.constraintKind).toBe('asap');
    await page.mouse.move(designBar.x + 5, designBar.y + designBar.height / 2, { steps: 6 });
    await page.mouse.up();
    await expect.poll(async () => (await buildBar.boundingBox())!.x).toBeCloseTo(buildX, 0);
    expect((await plan()).tasks.find((task) => task.id === design!.id)?.constraintKind).toBe('asap');

    // Drag Build two days later: the move becomes a "start no earlier than" constraint.
    const bar = (await page.locator(`[data-task-id="${build!.id}"]`).boundingBox())!;
    await page.mouse.move(bar.x + 10, bar.y + bar.height / 2);
    await page.mouse.down();
    await page.mouse.move(bar.x + 10 + 2 * 36, bar.y + bar.height / 2, { steps: 10 });
    await page.mouse.up();
    await expect.poll(async () => (await plan()).tasks.find((task) => task.id === build!.id)?.constraintKind).toBe('start_no_earlier_than');
    await shot('02-linked-and-moved');
    // Its drawer says why it is there and how far it slipped from the baseline.
    await page.getByRole('row').filter({ hasText: 'Build' }).getByRole('gridcell').first().dblclick();
    const drawer = page.getByRole('complementary', { name: `Task ${build!.key}` });
    await drawer.getByText('finish variance 2 d late').waitFor();
    await drawer.getByText('Start no earlier than').first().waitFor();

    // Undo takes the move back.
    await page.getByRole('button', { name: 'Undo move' }).click();
    await expect.poll(async () => (await plan()).tasks.find((task) => task.id === build!.id)?.constraintKind).toBe('asap');

    // The drawer edits any field, and assigns people.
    await drawer.getByLabel('WBS code').fill('1.2');
    await drawer.getByLabel('Effort driven').uncheck();
    await drawer.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await plan()).tasks.find((task) => task.id === build!.id)).toMatchObject({ wbs: '1.2', effortDriven: false });
    await drawer.getByRole('checkbox', { name: 'Grace Hopper' }).click();
    await expect.poll(async () => (await server.request<{ task: { assignees: { name: string }[] } }>('GET', `/api/projects/${projectId}/tasks/${build!.id}`, { key })).body.task.assignees.map((a) => a.name)).toEqual(['Grace Hopper']);
    await drawer.getByRole('button', { name: 'Close the task' }).click();

    // A link's type is changed in the drawer (start-to-start: Build starts with Design), then undone.
    await page.getByRole('row').filter({ hasText: 'Build' }).getByRole('gridcell').first().dblclick();
    await drawer.getByLabel(`Link type with ${design!.key}`).selectOption('SS');
    await expect.poll(async () => (await plan()).dependencies.map((link) => (link as { type?: string }).type)).toEqual(['SS']);
    expect((await plan()).tasks.find((task) => task.id === build!.id)?.startAt).toBe(design!.startAt);
    await page.getByRole('button', { name: 'Undo link change' }).click();
    await expect.poll(async () => (await plan()).dependencies.map((link) => (link as { type?: string }).type)).toEqual(['FS']);
    await drawer.getByRole('button', { name: 'Close the task' }).click();

    // The API cannot delete, whatever it sends.
    const refused = await server.request('DELETE', `/api/projects/${projectId}/tasks/${design!.id}?confirm=${design!.key}`, { key });
    expect(refused.status).toBe(403);
    expect((refused.body as { details: { reason: string } }).details.reason).toBe('destructive');

    // The person deletes Design with the keyboard: the dialog names it, Enter confirms.
    await page.getByRole('row').filter({ hasText: 'Design' }).click();
    await page.getByRole('treegrid').press('Delete');
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`${design!.key} Design, with their links and comments, will be deleted`).waitFor();
    await shot('03-confirm-deletion');
    await page.keyboard.press('Enter');
    await page.getByRole('gridcell', { name: 'Design', exact: true }).waitFor({ state: 'detached' });
    expect((await plan()).tasks.map((task) => task.name)).toEqual(['Build']);
    expect((await plan()).dependencies).toEqual([]);

    // Names and durations are edited in place: double-click, type, Enter.
    await page.getByRole('treegrid').getByText('Build', { exact: true }).dblclick();
    await page.getByLabel(`Name of ${build!.key}`).fill('Build and test');
    await page.getByLabel(`Name of ${build!.key}`).press('Enter');
    await page.getByRole('gridcell', { name: 'Build and test', exact: true }).waitFor();
    await page.getByRole('gridcell', { name: '3 d', exact: true }).dblclick();
    await page.getByLabel(`Duration of ${build!.key} in working days`).fill('4');
    await page.getByLabel(`Duration of ${build!.key} in working days`).press('Enter');
    await expect.poll(async () => (await plan()).tasks[0]).toMatchObject({ name: 'Build and test', durationMin: 4 * 480 });

    // Then the project, from the list.
    await page.getByRole('link', { name: 'Gantry' }).click();
    await page.getByRole('row').filter({ hasText: 'Moon landing' }).getByRole('button', { name: 'Delete…' }).click();
    const projectKey = (await server.request<{ project: { key: string } }>('GET', `/api/projects/${projectId}`, { key })).body.project.key;
    await page.getByRole('dialog').getByLabel(`Type ${projectKey} to confirm`).fill(projectKey);
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No projects yet').waitFor();
    expect((await server.request('GET', `/api/projects/${projectId}`, { key })).status).toBe(404);

    await server.deliverAll();
    // Delivery is unordered: the events' own createdAt tells the order things happened in.
    const named = <Type extends DeliveredEventType>(type: Type) =>
      receiver
        .of(type)
        .filter((event) => event.projectId === projectId)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    expect(named('project.created')).toHaveLength(1);
    expect(named('task.created').map((event) => event.data.task.name)).toEqual(['Design', 'Build']);
    // A link whose type changes is announced again as created (the catalog has no dependency.updated).
    expect(named('dependency.created').map((event) => event.data.dependency.type)).toEqual(['FS', 'SS', 'FS']);
    expect(named('task.updated').some((event) => event.data.changes.constraintKind?.to === 'start_no_earlier_than')).toBe(true);
    expect(named('task.updated').some((event) => event.data.changes.name?.to === 'Build and test')).toBe(true);
    expect(named('task.updated').some((event) => event.data.changes.assignees !== undefined)).toBe(true);
    expect(named('task.deleted').map((event) => event.data.task.name)).toEqual(['Design']);
    expect(named('dependency.deleted')).toHaveLength(1);
    expect(named('project.deleted')).toHaveLength(1);
    for (const call of receiver.calls.filter((c) => c.body.projectId === projectId)) {
      expect(call.body.actor).toMatchObject({ name: 'Grace Hopper', client: null });
    }
  });
});
