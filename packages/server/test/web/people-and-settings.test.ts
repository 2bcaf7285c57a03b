import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, newPage, screenshots, signInThroughPage } from '../support/browser.js';
import { startReceiver } from '../support/receiver.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const screenshot = screenshots('people-and-settings');

describe('the web app: inviting and joining, API keys, webhooks', () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let browser: Browser;
  let owner: Page;

  /** A person made by the machine's administrator (verified), signed in through the sign-in page. */
  async function signedIn(email: string, name: string): Promise<Page> {
    const created = await server.cli('user', 'create', '--email', email, '--name', name, '--password', 'correct horse battery', '--json');
    expect(created.code, created.stderr).toBe(0);
    const page = await newPage(browser);
    await signInThroughPage(page, server.url, email, 'correct horse battery');
    return page;
  }

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_WEBHOOK_ALLOW_PRIVATE: '1' });
    receiver = await startReceiver();
    browser = await launchBrowser();
    owner = await signedIn('owner@example.com', 'Olga Owner');
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await server?.close();
  });

  test('a key made in the settings is shown once and works; a webhook it subscribes is turned on again after a 410, and a delivery is resent', async () => {
    await owner.getByRole('link', { name: 'Olga Owner' }).click();
    await owner.getByRole('heading', { name: 'Settings' }).waitFor();
    const keyForm = owner.getByRole('form', { name: 'New API key' });
    await keyForm.getByLabel('Key name').fill('Integration');
    await keyForm.getByLabel('Scope').selectOption('write');
    await keyForm.getByRole('button', { name: 'Create key' }).click();
    const key = (await owner.locator('code.secret').textContent())?.trim() ?? '';
    expect(key).toMatch(/^gnt_/);
    expect((await server.request('GET', '/api/auth/me', { key })).status).toBe(200);

    // The key subscribes a webhook to a project of its own, whose receiver then answers 410 Gone.
    const { body: created } = await server.request<{ project: { id: string } }>('POST', '/api/projects', { key, body: { name: 'Hooked' } });
    const { body: subscribed } = await server.request<{ webhook: { id: string } }>('POST', '/api/webhooks', { key, body: { url: receiver.url, events: ['task.created'], projectId: created.project.id, name: 'Receiver' } });
    receiver.answer(() => ({ status: 410 }));
    await server.request('POST', `/api/projects/${created.project.id}/tasks`, { key, body: { name: 'First' } });
    await server.deliverAll();
    const webhook = async () => (await server.request<{ webhook: { status: string } }>('GET', `/api/webhooks/${subscribed.webhook.id}`, { key })).body.webhook.status;
    expect(await webhook()).toBe('disabled');

    await owner.reload();
    const row = owner.getByRole('listitem').filter({ hasText: 'Receiver' });
    await row.getByText('disabled', { exact: true }).waitFor();
    // The key's calls show as its last use (the audit log is written within a second).
    await expect.poll(async () => {
      await owner.reload();
      return owner.getByRole('row').filter({ hasText: 'Integration' }).getByRole('cell').nth(4).textContent();
    }).not.toBe('never');
    await screenshot(owner, '01-disabled-webhook');
    await row.getByRole('button', { name: 'Turn on again' }).click();
    await row.getByText('active', { exact: true }).waitFor();
    expect(await webhook()).toBe('active');

    // The failed delivery, resent from its log, now reaches the receiver.
    receiver.answer(() => ({ status: 200 }));
    await row.getByRole('button', { name: 'Deliveries' }).click();
    await row.getByText('task.created').first().click();
    // The click returns before the page's request ends: deliver once the resend is recorded.
    const resent = owner.waitForResponse((response) => response.url().endsWith('/resend') && response.request().method() === 'POST');
    await row.getByRole('button', { name: 'Resend' }).first().click();
    expect((await resent).status()).toBe(202);
    await server.deliverAll();
    const received = receiver.of('task.created').filter((event) => event.projectId === created.project.id);
    expect(received.length).toBe(2);
    expect(received[1]!.id).toBe(received[0]!.id);
    expect(received[1]!.data.task.name).toBe('First');

    // The key is revoked from the same page and stops working at once.
    await owner.getByRole('row').filter({ hasText: 'Integration' }).getByRole('button', { name: 'Revoke' }).click();
    await owner.getByRole('row').filter({ hasText: 'Integration' }).getByText('revoked').waitFor();
    expect((await server.request('GET', '/api/auth/me', { key })).status).toBe(401);
  });

  test('an owner invites with a link; another person joins with it and edits, until the owner makes them a viewer; invite and join are announced', async () => {
    await owner.goto(`${server.url}/`);
    await owner.getByLabel('Project name').fill('Together');
    await owner.getByRole('button', { name: 'Create' }).click();
    await owner.getByRole('heading', { name: /Together/ }).waitFor();
    const projectId = new URL(owner.url()).pathname.split('/')[2]!;
    const ownerKey = ((await server.cli('key', 'create', '--email', 'owner@example.com', '--scope', 'write', '--json')).json as { key: string }).key;
    await server.request('POST', '/api/webhooks', { key: ownerKey, body: { url: receiver.url, events: ['member.invited', 'member.joined', 'task.created'], projectId } });

    await owner.getByRole('button', { name: 'Members' }).click();
    const panel = owner.getByRole('complementary', { name: 'Members' });
    await panel.getByLabel('Invite as').selectOption('editor');
    await panel.getByRole('button', { name: 'Create invite link' }).click();
    const link = (await panel.locator('code.secret').textContent())?.trim() ?? '';
    expect(link).toMatch(/\/join\/[\w-]+$/);
    await panel.getByText('anyone with the link').waitFor();
    await screenshot(owner, '02-invite');

    const guest = await signedIn('guest@example.com', 'Gus Guest');
    await guest.goto(link.replace(server.config.baseUrl, server.url));
    await guest.getByRole('button', { name: 'Join the project' }).click();
    await guest.getByRole('heading', { name: /Together/ }).waitFor();
    // An editor now: the new-task form is there, and a task they add is theirs.
    await guest.getByLabel('Task name').fill('Guest task');
    await guest.getByRole('button', { name: 'Add task' }).click();
    await guest.getByRole('gridcell', { name: 'Guest task', exact: true }).waitFor();
    await screenshot(guest, '03-joined');

    // The owner makes the guest a viewer: their page no longer offers to edit.
    await owner.reload();
    await owner.getByRole('button', { name: 'Members' }).click();
    const guestRole = owner.getByRole('complementary', { name: 'Members' }).getByLabel('Role of Gus Guest');
    await guestRole.selectOption('viewer');
    await expect.poll(async () => (await server.request<{ members: { name: string; role: string }[] }>('GET', `/api/projects/${projectId}/members`, { key: ownerKey })).body.members.find((member) => member.name === 'Gus Guest')?.role).toBe('viewer');
    await expect.poll(() => guestRole.inputValue()).toBe('viewer');
    await guest.reload();
    await guest.getByRole('gridcell', { name: 'Guest task', exact: true }).waitFor();
    expect(await guest.getByRole('button', { name: 'Add task' }).count()).toBe(0);

    await server.deliverAll();
    const events = (type: 'member.invited' | 'member.joined' | 'task.created') => receiver.calls.filter((call) => call.body.type === type && call.body.projectId === projectId).map((call) => call.body);
    expect(events('member.invited')).toHaveLength(1);
    expect(events('member.invited')[0]).toMatchObject({ actor: { name: 'Olga Owner', client: null }, data: { invitation: { role: 'editor', email: null } } });
    expect(JSON.stringify(events('member.invited'))).not.toContain(link.split('/').at(-1));
    expect(events('member.joined')).toHaveLength(1);
    expect(events('member.joined')[0]).toMatchObject({ actor: { name: 'Gus Guest' }, data: { member: { name: 'Gus Guest', role: 'editor' } } });
    expect(events('task.created')[0]).toMatchObject({ actor: { name: 'Gus Guest', client: null } });
  });

  test('a newcomer invited by e-mail: the mail brings the link, sign-in names the project, sign-up and verification lead back to join it', async () => {
    const ownerKey = ((await server.cli('key', 'create', '--email', 'owner@example.com', '--scope', 'write', '--json')).json as { key: string }).key;
    const { body: created } = await server.request<{ project: { id: string } }>('POST', '/api/projects', { key: ownerKey, body: { name: 'Rocket' } });
    await owner.goto(`${server.url}/projects/${created.project.id}`);
    await owner.getByRole('button', { name: 'Members' }).click();
    const panel = owner.getByRole('complementary', { name: 'Members' });
    await panel.getByLabel('Invite as').selectOption('editor');
    await panel.getByLabel('Only for this e-mail (optional)').fill('newbie@example.com');
    await panel.getByRole('button', { name: 'Create invite link' }).click();
    await panel.getByText('The link was e-mailed to newbie@example.com').waitFor();
    const mailedLink = async (to: string, page: string) => {
      const bodies = (await server.store.q.outbox.listMail({ pendingOnly: false, limit: 1000 })).filter((mail) => mail.to_address === to).map((mail) => mail.body);
      return new RegExp(`https?://\\S+/${page}\\S*`).exec(bodies.join('\n'))?.[0].replace(server.config.baseUrl, server.url) ?? '';
    };
    const invite = await mailedLink('newbie@example.com', 'join/');
    expect(invite).toMatch(/\/join\/[\w-]{43}$/);

    const newbie = await newPage(browser);
    await newbie.goto(invite);
    await newbie.getByRole('heading', { name: 'Sign in to Gantry' }).waitFor();
    const notice = newbie.getByRole('status');
    await notice.getByText('You were invited to join Rocket as editor.').waitFor();
    await screenshot(newbie, '05-invited-sign-in');
    await notice.getByRole('link', { name: 'create an account' }).click();
    await newbie.getByRole('heading', { name: 'Create your Gantry account' }).waitFor();
    await newbie.getByText('You were invited to join Rocket as editor.').waitFor();
    await newbie.getByLabel('Name').fill('Nina Newbie');
    await newbie.getByLabel('E-mail').fill('newbie@example.com');
    await newbie.getByLabel(/^Password/).fill('correct horse battery');
    await newbie.getByRole('button', { name: 'Create account' }).click();
    await newbie.getByText('join the project you were invited to').waitFor();

    await newbie.goto(await mailedLink('newbie@example.com', 'verify-email'));
    await newbie.getByRole('heading', { name: 'Join Rocket as editor' }).waitFor();
    await screenshot(newbie, '06-join');
    await newbie.getByRole('button', { name: 'Join the project' }).click();
    await newbie.getByRole('heading', { name: /Rocket/ }).waitFor();
    const members = (await server.request<{ members: { email: string; role: string }[] }>('GET', `/api/projects/${created.project.id}/members`, { key: ownerKey })).body.members;
    expect(members.find((member) => member.email === 'newbie@example.com')?.role).toBe('editor');
  });

  test('a browser left signed in elsewhere is signed out from the settings', async () => {
    const elsewhere = await signedIn('traveller@example.com', 'Tina Traveller');
    const here = await newPage(browser);
    await here.goto(`${server.url}/sign-in`);
    await here.getByLabel('E-mail').fill('traveller@example.com');
    await here.getByLabel('Password').fill('correct horse battery');
    await here.getByRole('button', { name: 'Sign in' }).click();
    await here.getByRole('heading', { name: 'Projects' }).waitFor();
    await here.getByRole('link', { name: 'Tina Traveller' }).click();
    const browsers = here.getByRole('region', { name: 'Signed-in browsers' });
    await browsers.getByText('This browser').waitFor();
    expect(await browsers.getByRole('row').count()).toBe(3); // the header, this browser, the other
    await browsers.scrollIntoViewIfNeeded();
    await screenshot(here, '04-signed-in-browsers');
    await browsers.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => browsers.getByRole('row').count()).toBe(2);
    // The other browser is signed out at once: its next page asks it to sign in.
    await elsewhere.reload();
    await elsewhere.getByRole('button', { name: 'Sign in' }).waitFor();
    await here.reload();
    await here.getByRole('heading', { name: 'Settings' }).waitFor();
  });
});
