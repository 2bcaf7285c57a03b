import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, newPage, screenshots, signInThroughPage } from '../support/browser.js';
import { testPassword } from '../support/sessions.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const screenshot = screenshots('comments');

// README › The web app: a task's comments mention members with @ and a name, its beginning or
// the first name; the box lists the members as @ is typed, and warns of a mention that
// notifies nobody.
describe('the web app: mentions in task comments', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let key: string;
  let projectId: string;
  let taskId: string;
  const userIds = new Map<string, string>();

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    for (const [email, name] of [['owner@example.com', 'Olga Owner'], ['alice@example.com', 'Alice Smith'], ['builder@example.com', 'Bob Builder'], ['brown@example.com', 'Bob Brown'], ['carol@example.com', 'Carol Jones']] as const) {
      const created = await server.cli('user', 'create', '--email', email, '--name', name, '--password', testPassword, '--json');
      expect(created.code, created.stderr).toBe(0);
      userIds.set(name, (created.json as { user: { id: string } }).user.id);
    }
    key = ((await server.cli('key', 'create', '--email', 'owner@example.com', '--scope', 'write', '--json')).json as { key: string }).key;
    projectId = (await server.request<{ project: { id: string } }>('POST', '/api/projects', { key, body: { name: 'Mentions' } })).body.project.id;
    taskId = (await server.request<{ tasks: { id: string }[] }>('POST', `/api/projects/${projectId}/tasks`, { key, body: { name: 'Review' } })).body.tasks[0]!.id;
    for (const email of ['alice@example.com', 'builder@example.com', 'brown@example.com', 'carol@example.com']) {
      expect((await server.cli('project', 'add-member', '--project', projectId, '--email', email, '--role', 'editor')).code).toBe(0);
    }
    page = await newPage(browser);
    await signInThroughPage(page, server.url, 'owner@example.com', testPassword);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('@ lists the members (↑/↓, Enter or Tab, Esc); a first name or a beginning mentions; an unknown or ambiguous one is warned of, and notifies nobody', async () => {
    await page.goto(`${server.url}/projects/${projectId}/tasks/${taskId}`);
    const comments = page.getByRole('region', { name: 'Comments' });
    const box = comments.getByLabel(/^Add a comment/);
    const choices = comments.getByRole('listbox', { name: 'Members to mention' });
    const selected = () => choices.getByRole('option', { selected: true }).textContent();

    await box.pressSequentially('Thanks @Ali');
    await expect.poll(() => choices.getByRole('option').allTextContents()).toEqual(['Alice Smith alice@example.com']);
    await box.press('Enter');
    await expect.poll(() => box.inputValue()).toBe('Thanks @Alice Smith ');
    await expect.poll(() => choices.isVisible()).toBe(false);

    await box.pressSequentially('and @bob');
    await expect.poll(() => choices.getByRole('option').count()).toBe(2);
    await screenshot(page, '01-choices');
    const first = await selected();
    await box.press('ArrowDown');
    await expect.poll(selected).not.toBe(first);
    await box.press('ArrowUp');
    await expect.poll(selected).toBe(first);
    await comments.getByText(/@bob matches Bob (Builder|Brown), Bob (Builder|Brown): write more of the name: nobody is notified\./).waitFor();
    await box.pressSequentially(' br');
    await expect.poll(() => choices.getByRole('option').allTextContents()).toEqual(['Bob Brown brown@example.com']);
    await box.press('Tab');
    await expect.poll(() => box.inputValue()).toBe('Thanks @Alice Smith and @Bob Brown ');

    await box.pressSequentially(', cc @carol');
    await choices.getByRole('option').waitFor();
    await box.press('Escape');
    await expect.poll(() => choices.isVisible()).toBe(false);
    await box.pressSequentially(' and @Zed');
    await comments.getByText('@Zed matches no member: nobody is notified.').waitFor();
    expect(await comments.getByText(/matches Bob/).count()).toBe(0);
    await screenshot(page, '02-warned');

    await comments.getByRole('button', { name: 'Comment' }).click();
    await comments.getByText('Comment posted. E-mailed: Alice Smith, Bob Brown, Carol Jones. Not notified: @Zed matches no member.').waitFor();
    await screenshot(page, '03-posted');
    const posted = (await server.request<{ comments: { body: string; mentions: string[] }[] }>('GET', `/api/projects/${projectId}/tasks/${taskId}/comments`, { key })).body.comments;
    expect(posted.map((comment) => comment.body)).toEqual(['Thanks @Alice Smith and @Bob Brown , cc @carol and @Zed']);
    expect(posted[0]!.mentions.sort()).toEqual(['Alice Smith', 'Bob Brown', 'Carol Jones'].map((name) => userIds.get(name)).sort());
    const mailed = (await server.store.q.outbox.listMail({ pendingOnly: false, limit: 100 })).filter((mail) => mail.subject.includes('mentioned you'));
    expect(mailed.map((mail) => mail.to_address).sort()).toEqual(['alice@example.com', 'brown@example.com', 'carol@example.com']);
  });
});
