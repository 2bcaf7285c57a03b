import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, newPage, screenshots } from '../support/browser.js';
import { treeOf } from '../support/plan-tree.js';
import { signedInPerson, type Person } from '../support/sessions.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

interface PlanTaskLite {
  id: string;
  key: string;
  name: string;
  parentId: string | null;
  sortKey: string;
}
interface PlanLite {
  tasks: PlanTaskLite[];
  dependencies: { predecessorId: string; successorId: string; type: string }[];
}

const screenshot = screenshots('gantt-editing');

/**
 * Editing a plan as a Microsoft Project user does, by keyboard first: every path is driven
 * with the keys a planner presses and checked through the REST API.
 */
describe('the Gantt chart, edited from the keyboard', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let key: string;
  let pat: Person;

  beforeAll(async () => {
    // With the default budgets: a web session's 600 writes a minute (docs/api.md › Limits) hold a planner at the keyboard.
    server = await startTestServer();
    const person = (pat = await signedInPerson(server, 'pat@example.com', 'Pat Planner'));
    key = ((await server.cli('key', 'create', '--email', 'pat@example.com', '--scope', 'write', '--json')).json as { key: string }).key;
    browser = await launchBrowser();
    page = await newPage(browser);
    const [name, value] = person.cookie.split('=') as [string, string];
    await page.context().addCookies([{ name, value, url: server.url }]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A project with these top-level tasks, open in the browser. */
  async function openPlan(names: readonly string[]): Promise<{ projectId: string; ids: Record<string, string> }> {
    const { body } = await server.request<{ project: { id: string } }>('POST', '/api/projects', { key, body: { name: `Keys ${Math.random().toString(36).slice(2, 6)}`, startDate: '2027-01-04' } });
    const projectId = body.project.id;
    const created = await server.request<{ tasks: PlanTaskLite[] }>('POST', `/api/projects/${projectId}/tasks`, { key, body: { createTasks: names.map((name) => ({ name, durationMin: 480 })) } });
    await page.goto(`${server.url}/projects/${projectId}`);
    await page.getByRole('treegrid').waitFor();
    return { projectId, ids: Object.fromEntries(created.body.tasks.map((task) => [task.name, task.id])) };
  }

  const planOf = async (projectId: string) => (await server.request<PlanLite>('GET', `/api/projects/${projectId}`, { key })).body;
  const tree = async (projectId: string) => treeOf(await planOf(projectId));
  const row = (name: string): Locator => page.getByRole('row', { name: new RegExp(`^\\S+-\\d+ ${name}$`) });
  /** Waits until every change asked for has been answered. */
  const settled = () => page.locator('.edit-bar[aria-busy="false"]').waitFor();

  test('indent, outdent and move by keys; undo and redo; Insert; link the selection and unlink it', async () => {
    const { projectId, ids } = await openPlan(['A', 'B', 'C', 'D', 'E']);
    await row('A').click();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Alt+Shift+ArrowRight');
    await expect.poll(() => tree(projectId)).toBe('A(B) C D E');
    await expect.poll(() => row('B').getAttribute('aria-level')).toBe('2');
    expect(await row('A').getAttribute('aria-expanded')).toBe('true');
    // Shift+↓ adds C to the selection: indenting both puts C under A too (B has no sibling above).
    await page.keyboard.press('Shift+ArrowDown');
    expect(await row('C').getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Alt+Shift+ArrowRight');
    await expect.poll(() => tree(projectId)).toBe('A(B C) D E');
    await screenshot(page, '01-indented');
    // Outdenting B takes C along as its subtask (every row keeps its place, as in Project); then C.
    await row('B').click();
    await page.keyboard.press('Alt+Shift+ArrowLeft');
    await expect.poll(() => tree(projectId)).toBe('A B(C) D E');
    await row('E').click();
    await page.keyboard.press('Alt+Shift+ArrowUp');
    await expect.poll(() => tree(projectId)).toBe('A B(C) E D');

    await page.keyboard.press('Control+z');
    await expect.poll(() => tree(projectId)).toBe('A B(C) D E');
    await page.keyboard.press('Control+z');
    await expect.poll(() => tree(projectId)).toBe('A(B C) D E');
    await page.keyboard.press('Control+y');
    await expect.poll(() => tree(projectId)).toBe('A B(C) D E');
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(() => tree(projectId)).toBe('A B(C) E D');
    // The toolbar says what the next undo and redo would do.
    await page.getByRole('button', { name: 'Undo move up' }).waitFor();

    // Insert adds a task above the selected row and names it in place.
    await row('D').click();
    await page.keyboard.press('Insert');
    const nameField = page.getByRole('textbox', { name: /^Name of / });
    await nameField.fill('Inserted');
    await nameField.press('Enter');
    await expect.poll(() => tree(projectId)).toBe('A B(C) E Inserted D');

    // Ctrl+click picks A and D; Ctrl+F2 links them in outline order, Ctrl+Shift+F2 unlinks them.
    await row('A').click();
    await row('D').click({ modifiers: ['Control'] });
    await page.keyboard.press('Control+F2');
    await expect.poll(async () => (await planOf(projectId)).dependencies.map((link) => [link.predecessorId, link.successorId, link.type])).toEqual([[ids.A, ids.D, 'FS']]);
    await page.locator('svg.links path.link').first().waitFor();
    await page.keyboard.press('Control+Shift+F2');
    await expect.poll(async () => (await planOf(projectId)).dependencies).toEqual([]);
    await settled();
  });

  test('delete several tasks from one dialog with Enter, then bring them back with Ctrl+Z', async () => {
    const { projectId, ids } = await openPlan(['A', 'B', 'C', 'D']);
    await row('B').click();
    await page.keyboard.press('Alt+Shift+ArrowRight'); // A(B) C D
    await row('A').click();
    await row('C').click({ modifiers: ['Control'] });
    await page.keyboard.press('Control+F2'); // A → C
    await expect.poll(async () => (await planOf(projectId)).dependencies.length).toBe(1);
    await row('A').click();
    await row('D').click({ modifiers: ['Control'] });
    await page.keyboard.press('Delete');
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Delete 2 tasks?' }).waitFor();
    await dialog.getByText(/A, .*D and 1 subtask/).waitFor();
    await screenshot(page, '02-delete-dialog');
    await page.keyboard.press('Enter');
    await expect.poll(() => tree(projectId)).toBe('C');
    // The keyboard is back on the chart: the next key acts on the plan.
    await page.getByRole('treegrid').and(page.locator(':focus')).waitFor();
    await page.keyboard.press('Control+z');
    await expect.poll(() => tree(projectId)).toBe('A(B) C D');
    const plan = await planOf(projectId);
    expect(plan.tasks.map((task) => task.id).sort()).toEqual(Object.values(ids).sort());
    expect(plan.dependencies.map((link) => [link.predecessorId, link.successorId])).toEqual([[ids.A, ids.C]]);
    await screenshot(page, '03-restored');
  });

  test('fifty changes undone and redone in a row, keys pressed faster than the server answers', async () => {
    const { projectId } = await openPlan(['A', 'B', 'C', 'D', 'E']);
    await row('A').click();
    // A walks down to the end and back up, again and again: 50 moves, each its own step.
    const presses = Array.from({ length: 50 }, (_, step) => (Math.floor(step / 4) % 2 === 0 ? 'Alt+Shift+ArrowDown' : 'Alt+Shift+ArrowUp'));
    for (const press of presses) await page.keyboard.press(press);
    await expect.poll(() => tree(projectId), { timeout: 30_000 }).toBe('B C A D E');
    for (let step = 0; step < 50; step++) await page.keyboard.press('Control+z');
    await expect.poll(() => tree(projectId), { timeout: 30_000 }).toBe('A B C D E');
    await settled();
    expect(await page.getByRole('button', { name: /^Undo/ }).isDisabled()).toBe(true);
    for (let step = 0; step < 50; step++) await page.keyboard.press('Control+y');
    await expect.poll(() => tree(projectId), { timeout: 30_000 }).toBe('B C A D E');
    await settled();
    expect(await page.getByRole('button', { name: /^Redo/ }).isDisabled()).toBe(true);
  });

  test('copy tasks with their subtasks and links, paste them into another project and into the same one; undo a paste', async () => {
    const source = await openPlan(['Design', 'Spec', 'Build']);
    await row('Spec').click();
    await page.keyboard.press('Alt+Shift+ArrowRight'); // Design(Spec) Build
    await row('Design').click();
    await row('Build').click({ modifiers: ['Control'] });
    await page.keyboard.press('Control+F2');
    await expect.poll(async () => (await planOf(source.projectId)).dependencies.length).toBe(1);
    await page.keyboard.press('Control+c');

    const target = await openPlan(['Kickoff', 'Wrap-up']);
    await row('Kickoff').click();
    await page.keyboard.press('Control+v');
    await expect.poll(() => tree(target.projectId)).toBe('Kickoff Design(Spec) Build Wrap-up');
    const pasted = await planOf(target.projectId);
    const named = (name: string) => pasted.tasks.find((task) => task.name === name)!;
    // New tasks, the copied link between the copies.
    expect(Object.values(source.ids)).not.toContain(named('Design').id);
    expect(pasted.dependencies.map((link) => [link.predecessorId, link.successorId])).toEqual([[named('Design').id, named('Build').id]]);
    // The pasted tasks are the selection, and one Ctrl+Z takes the whole paste back.
    expect(await row('Design').getAttribute('aria-selected')).toBe('true');
    await screenshot(page, '04-pasted');
    await page.keyboard.press('Control+z');
    await expect.poll(() => tree(target.projectId)).toBe('Kickoff Wrap-up');
    // Pasted twice, under the same row: the second lands after the first.
    await row('Kickoff').click();
    await page.keyboard.press('Control+v');
    await expect.poll(() => tree(target.projectId)).toBe('Kickoff Design(Spec) Build Wrap-up');
    await page.getByRole('button', { name: 'Paste', exact: true }).click();
    await expect.poll(() => tree(target.projectId)).toBe('Kickoff Design(Spec) Build Design(Spec) Build Wrap-up');
  });

  test('a link clicked in the chart changes its type and lag, or goes', async () => {
    const { projectId, ids } = await openPlan(['A', 'B']);
    await row('A').click();
    await row('B').click({ modifiers: ['Control'] });
    await page.keyboard.press('Control+F2');
    const link = page.locator('svg.links path.link-hit').first();
    await link.waitFor();
    await link.click({ force: true });
    const editor = page.getByRole('dialog', { name: /^Link \S+ → \S+$/ });
    await editor.getByLabel('Type').selectOption('SS');
    await expect.poll(async () => (await planOf(projectId)).dependencies.map((each) => each.type)).toEqual(['SS']);
    await editor.getByLabel(/^Lag/).fill('2');
    await editor.getByLabel(/^Lag/).press('Enter');
    await expect.poll(async () => (await server.request<{ dependencies: { lagMin: number }[] }>('GET', `/api/projects/${projectId}`, { key })).body.dependencies[0]?.lagMin).toBe(960);
    await screenshot(page, '05-link-editor');
    await editor.getByRole('button', { name: 'Remove link' }).click();
    await expect.poll(async () => (await planOf(projectId)).dependencies).toEqual([]);
    // Each was a step: undo brings the link back with its lag, then its type, then takes it away.
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await planOf(projectId)).dependencies.map((each) => [each.predecessorId, each.type])).toEqual([[ids.A, 'SS']]);
  });

  test('a bar\'s progress is dragged with its handle', async () => {
    const { projectId, ids } = await openPlan(['Pour']);
    await page.getByLabel('Zoom').selectOption('day');
    await row('Pour').click();
    const bar = (await page.locator(`[data-task-id="${ids.Pour}"]`).boundingBox())!;
    const handle = (await page.locator('.gantt-row.selected .progress-handle').boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(bar.x + bar.width * 0.6, handle.y + handle.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => (await server.request<{ tasks: { progressPct: number }[] }>('GET', `/api/projects/${projectId}`, { key })).body.tasks[0]?.progressPct).toBeGreaterThan(50);
    const progress = (await server.request<{ tasks: { progressPct: number }[] }>('GET', `/api/projects/${projectId}`, { key })).body.tasks[0]!.progressPct;
    expect(progress).toBeLessThan(70);
    await page.getByRole('button', { name: 'Undo progress' }).click();
    await expect.poll(async () => (await server.request<{ tasks: { progressPct: number }[] }>('GET', `/api/projects/${projectId}`, { key })).body.tasks[0]?.progressPct).toBe(0);
  });

  test('columns chosen and kept; every editable cell edits in place: typing, F2, Tab, Enter, Escape; predecessors as Project writes them', async () => {
    const { projectId, ids } = await openPlan(['Survey', 'Foundations', 'Walls', 'Prepare the architectural drawings and every permit the town asks for']);
    // Every row's cells line up under their headers, however long a name is.
    const lefts = await page.locator('.gantt-row .col-duration, .gantt-header .col-duration').evaluateAll((cells) => cells.map((cell) => Math.round(cell.getBoundingClientRect().left)));
    expect(new Set(lefts).size).toBe(1);
    await page.getByRole('button', { name: 'Columns' }).click();
    const panel = page.getByRole('complementary', { name: 'Columns' });
    await panel.getByLabel('Predecessors').check();
    await panel.getByLabel('% complete').check();
    await panel.getByRole('button', { name: 'Move Predecessors left' }).click();
    await page.getByRole('columnheader', { name: 'Predecessors' }).waitFor();
    expect(await page.getByRole('columnheader').allTextContents()).toEqual(['Key', 'Task', 'Duration', 'Start', 'Predecessors', 'Finish', '% complete']);

    // Typing replaces the cell clicked; Tab keeps it and edits the next cell.
    await row('Walls').locator('.col-name').click();
    await page.keyboard.type('B');
    const name = page.getByRole('textbox', { name: /^Name of / });
    await name.pressSequentially('rick walls');
    await name.press('Tab');
    const duration = page.getByRole('spinbutton', { name: /^Duration of / });
    await duration.fill('3');
    await duration.press('Enter');
    await expect.poll(async () => (await planOf(projectId)).tasks.find((task) => task.id === ids.Walls)).toMatchObject({ name: 'Brick walls', durationMin: 3 * 480 });

    // Predecessors typed as Microsoft Project takes them: task numbers with a type and a lag.
    const numbers = Object.fromEntries((await planOf(projectId)).tasks.map((task) => [task.name, task.key.split('-')[1]]));
    const cell = row('Brick walls').getByRole('gridcell').nth(4);
    await cell.dblclick();
    const predecessors = page.getByRole('textbox', { name: /^Predecessors of / });
    await predecessors.fill(`${numbers.Survey};${numbers.Foundations}SS+2d`);
    await predecessors.press('Enter');
    await expect.poll(async () => (await server.request<{ dependencies: { predecessorId: string; type: string; lagMin: number }[] }>('GET', `/api/projects/${projectId}`, { key })).body.dependencies.map((link) => [link.predecessorId, link.type, link.lagMin]).sort()).toEqual(
      [[ids.Survey, 'FS', 0], [ids.Foundations, 'SS', 960]].sort(),
    );
    await expect.poll(() => cell.textContent()).toBe(`${numbers.Survey};${numbers.Foundations}SS+2d`);
    // A number that names no task is refused with why, and nothing changes.
    await cell.dblclick();
    await predecessors.fill('999');
    await predecessors.press('Enter');
    await page.getByText('Predecessors: there is no task 999 in this project').waitFor();
    expect((await planOf(projectId)).dependencies).toHaveLength(2);
    // Escape drops what was typed; undo takes the predecessors back.
    await row('Survey').getByRole('gridcell').nth(6).dblclick();
    const progress = page.getByRole('spinbutton', { name: /^% complete of / });
    await progress.fill('50');
    await progress.press('Escape');
    await page.getByRole('button', { name: 'Undo predecessors' }).click();
    await expect.poll(async () => (await planOf(projectId)).dependencies).toEqual([]);
    expect((await planOf(projectId)).tasks.find((task) => task.id === ids.Survey)).toMatchObject({ name: 'Survey' });
    await screenshot(page, '06-columns');

    // The grid's width follows the splitter (and the panel's field); columns and width are kept for the next visit.
    const splitter = page.locator('.splitter');
    const at = (await splitter.boundingBox())!;
    const before = Number(await splitter.getAttribute('data-width'));
    await page.mouse.move(at.x + 3, at.y + 5);
    await page.mouse.down();
    await page.mouse.move(at.x + 123, at.y + 5, { steps: 4 });
    await page.mouse.up();
    const width = Number(await splitter.getAttribute('data-width'));
    expect(width).toBe(before + 120);
    expect(Number(await panel.getByLabel('Grid width (pixels)').inputValue())).toBe(width);
    await page.reload();
    await page.getByRole('columnheader', { name: 'Predecessors' }).waitFor();
    expect(Number(await page.locator('.splitter').getAttribute('data-width'))).toBe(width);
  });

  test('← → move the cell cursor and typing edits the cell under it; on a summary\'s name they fold and unfold it', async () => {
    const { projectId, ids } = await openPlan(['Design', 'Spec', 'Build']);
    await row('Spec').click();
    await page.keyboard.press('Alt+Shift+ArrowRight');
    await expect.poll(() => tree(projectId)).toBe('Design(Spec) Build');
    const cursor = () => page.locator('.gantt-row.focused .cell-cursor').getAttribute('class');
    const grid = page.getByRole('treegrid');

    // A click puts the cursor on the cell clicked.
    await row('Build').locator('.col-name').click();
    await expect.poll(cursor).toContain('col-name');
    await page.keyboard.press('ArrowRight');
    await expect.poll(cursor).toContain('col-duration');
    expect(await grid.getAttribute('aria-activedescendant')).toBe(`cell-${ids.Build}-duration`);
    await page.keyboard.type('4');
    const duration = page.getByRole('spinbutton', { name: /^Duration of / });
    await duration.press('Enter');
    await expect.poll(async () => (await planOf(projectId)).tasks.find((task) => task.id === ids.Build)?.name).toBe('Build');
    await expect.poll(async () => (await server.request<{ tasks: { id: string; durationMin: number }[] }>('GET', `/api/projects/${projectId}`, { key })).body.tasks.find((task) => task.id === ids.Build)?.durationMin).toBe(4 * 480);
    // The cursor stops at the grid's edges.
    for (let step = 0; step < 6; step++) await page.keyboard.press('ArrowLeft');
    await expect.poll(cursor).toContain('col-key');

    // On a summary's name, ← folds and → unfolds; a second → moves on to the next cell.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowRight');
    await expect.poll(cursor).toContain('col-name');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => row('Design').getAttribute('aria-expanded')).toBe('false');
    await expect(row('Spec').count()).resolves.toBe(0);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => row('Design').getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowRight');
    await expect.poll(cursor).toContain('col-duration');
    await screenshot(page, '08-cell-cursor');
  });

  test('several tasks edited in one form (Enter or Shift+F2 on a selection), in one step of undo', async () => {
    const { projectId } = await openPlan(['Pour', 'Cure', 'Strip']);
    const fieldsOf = async () =>
      Object.fromEntries(
        (await server.request<{ tasks: { name: string; durationMin: number; progressPct: number }[] }>('GET', `/api/projects/${projectId}`, { key })).body.tasks.map((task) => [task.name, [task.durationMin / 480, task.progressPct]]),
      );
    // Make their durations differ: the form shows the field as differing and leaves it alone.
    await row('Strip').locator('.col-duration').dblclick();
    const duration = page.getByRole('spinbutton', { name: /^Duration of / });
    await duration.fill('2');
    await duration.press('Enter');
    await expect.poll(fieldsOf).toEqual({ Pour: [1, 0], Cure: [1, 0], Strip: [2, 0] });

    await row('Pour').click();
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Enter');
    const form = page.getByRole('complementary', { name: 'Edit 3 tasks' });
    await form.waitFor();
    expect(await form.getByLabel('Duration (working days)').getAttribute('placeholder')).toBe('Differs: left as it is');
    // A value the API refuses is named with its task, and nothing changes.
    await form.getByLabel('Progress (%)').fill('150');
    await form.getByRole('button', { name: 'Save 1 field on 3 tasks' }).click();
    await form.getByRole('alert').filter({ hasText: 'progressPct' }).waitFor();
    expect(await fieldsOf()).toEqual({ Pour: [1, 0], Cure: [1, 0], Strip: [2, 0] });
    await form.getByLabel('Progress (%)').fill('40');
    await screenshot(page, '09-bulk-edit');
    await form.getByRole('button', { name: 'Save 1 field on 3 tasks' }).click();
    await form.waitFor({ state: 'detached' });
    await expect.poll(fieldsOf).toEqual({ Pour: [1, 40], Cure: [1, 40], Strip: [2, 40] });

    // One undo takes all three back; Shift+F2 opens the form again, and one field set is one field sent.
    await page.keyboard.press('Control+z');
    await expect.poll(fieldsOf).toEqual({ Pour: [1, 0], Cure: [1, 0], Strip: [2, 0] });
    await page.keyboard.press('Shift+F2');
    await form.getByLabel('Duration (working days)').fill('3');
    await form.getByRole('button', { name: 'Save 1 field on 3 tasks' }).click();
    await expect.poll(fieldsOf).toEqual({ Pour: [3, 0], Cure: [3, 0], Strip: [3, 0] });
  });

  test('rows dragged by their key: before another row, or onto its middle to become its subtask', async () => {
    const { projectId } = await openPlan(['A', 'B', 'C']);
    const keyOf = (name: string) => row(name).getByRole('gridcell').first();
    // C onto A's middle: A's subtask.
    await keyOf('C').dragTo(row('A'), { targetPosition: { x: 300, y: 16 } });
    await expect.poll(() => tree(projectId)).toBe('A(C) B');
    // B to the top edge of A: before it.
    await keyOf('B').dragTo(row('A'), { targetPosition: { x: 300, y: 2 } });
    await expect.poll(() => tree(projectId)).toBe('B A(C)');
    await page.keyboard.press('Control+z');
    await expect.poll(() => tree(projectId)).toBe('A(C) B');
  });

  test('dates in German fit their cells (März and Mai are not both "M…")', async () => {
    const { projectId, ids } = await openPlan(['Bestellung', 'Lieferung']);
    await server.request('PATCH', `/api/projects/${projectId}/tasks/${ids.Bestellung}`, { key, body: { constraintKind: 'start_no_earlier_than', constraintDate: '2027-03-10T08:00:00Z' } });
    await server.request('PATCH', `/api/projects/${projectId}/tasks/${ids.Lieferung}`, { key, body: { constraintKind: 'start_no_earlier_than', constraintDate: '2027-05-10T08:00:00Z' } });
    expect((await server.request('PATCH', '/api/auth/me', { headers: pat.headers, body: { locale: 'de' } })).status).toBe(200);
    try {
      await page.reload();
      await row('Lieferung').getByText('10. Mai').first().waitFor();
      await row('Bestellung').getByText('10. März').first().waitFor();
      const cut = await page.locator('.gantt-row .col-start, .gantt-row .col-finish').evaluateAll((cells) => cells.filter((cell) => cell.scrollWidth > cell.clientWidth).map((cell) => cell.textContent));
      expect(cut).toEqual([]);
      await screenshot(page, '07-german-dates');
    } finally {
      await server.request('PATCH', '/api/auth/me', { headers: pat.headers, body: { locale: 'en' } });
    }
  });
});
