/** Server-rendered sign-in and consent pages of the authorization server (no script). */

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Markup that is already safe: what `html` produces, so that pieces nest without double escaping. */
class Safe {
  constructor(readonly text: string) {}
}

function render(value: unknown): string {
  if (value instanceof Safe) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return String(value).replace(/[&<>"']/g, (c) => escapes[c] ?? c);
}

/** A template whose interpolations are escaped (text and attribute values alike). */
function html(strings: TemplateStringsArray, ...values: unknown[]): Safe {
  return new Safe(strings.reduce((out, part, i) => out + part + (i < values.length ? render(values[i]) : ''), ''));
}

function page(title: string, body: Safe): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Gantry</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;background:#f4f5f7;color:#172b4d;margin:0}
main{max-width:26rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 3px #0002}
h1{font-size:1.4rem;margin-top:0}label{display:block;margin:1rem 0 .25rem}
input{width:100%;box-sizing:border-box;padding:.5rem;font:inherit}
button{font:inherit;padding:.5rem 1.2rem;margin:1rem .5rem 0 0;border-radius:4px;border:1px solid #0052cc;background:#0052cc;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#0052cc}.error{color:#bf2600}.muted{color:#5e6c84;font-size:.9rem}
ul{padding-left:1.2rem}code{word-break:break-all}
</style>
</head>
<body><main>${body}</main></body>
</html>`.text;
}

export function signInPage(input: { action: string; clientName: string; email?: string; error?: string }): string {
  return page(
    'Sign in',
    html`<h1>Sign in to Gantry</h1>
<p><strong>${input.clientName}</strong> asks to use Gantry for you. Sign in to continue.</p>
${input.error ? html`<p class="error" role="alert">${input.error}</p>` : ''}
<form method="post" action="${input.action}">
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required value="${input.email ?? ''}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`,
  );
}

export interface ConsentView {
  confirmAction: string;
  denyAction: string;
  clientName: string;
  /** Where the app came from: its metadata document URL, or when it registered itself. */
  clientOrigin: string;
  redirectHost: string;
  userName: string;
  scopes: string[];
  resources: string[];
}

const scopeMeanings: Record<string, string> = {
  'service:read': 'Read your workspaces, projects, tasks, dependencies, members, comments, baselines and webhooks',
  'service:write': 'Create and change projects, tasks, dependencies, comments, baselines and webhooks (never delete projects or tasks)',
};

export function consentPage(view: ConsentView): string {
  return page(
    'Allow access',
    html`<h1>Allow <strong>${view.clientName}</strong> to use Gantry?</h1>
<p class="muted">${view.clientOrigin}. After you answer, you go back to <code>${view.redirectHost}</code>.</p>
<p>Signed in as <strong>${view.userName}</strong>. The app would act for you, within your own permissions:</p>
<ul>${view.scopes.map((scope) => html`<li><strong>${scope}</strong>: ${scopeMeanings[scope] ?? scope}</li>`)}</ul>
<p class="muted">For: ${view.resources.map((resource, i) => html`${i > 0 ? ', ' : ''}<code>${resource}</code>`)}</p>
<form method="post" action="${view.confirmAction}" style="display:inline"><button type="submit">Allow</button></form>
<form method="post" action="${view.denyAction}" style="display:inline"><button type="submit" class="secondary">Deny</button></form>`,
  );
}

export function problemPage(message: string): string {
  return page('Sign-in problem', html`<h1>This sign-in cannot go on</h1><p>${message}</p><p class="muted">Go back to the app and start again.</p>`);
}
