import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { browserLocale } from '../format';
import { ApiError, call, describeError } from '../client';
import { Alert, Card, Field } from '../components';
import { useSession } from '../session';
import { inviteTokenOf, unusableInvite, useInvitePreview } from './join-page';

/** Where to go after signing in: a path of this app only (never another site, nor `//host`). */
export function localPath(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

/** The page `?next=` names to go on to after signing in or up, if it is one of this app. */
function nextOf(params: URLSearchParams): string | null {
  const next = params.get('next');
  return next !== null && localPath(next) === next ? next : null;
}

/** `?next=…`, for the links between these pages to carry the page to go on to along. */
function nextQuery(next: string | null): string {
  return next === null ? '' : `?next=${encodeURIComponent(next)}`;
}

/** Says that an invite link brought the person here (when `next` is one), and what it joins. */
function InviteNotice({ next }: { next: string | null }) {
  const token = inviteTokenOf(next);
  const { invite } = useInvitePreview(token);
  if (token === null) return null;
  if (invite === null) return <Alert>The invite link you followed cannot be used: {unusableInvite}.</Alert>;
  const signUp = <Link to={`/sign-up${nextQuery(next)}`}>create an account</Link>;
  return (
    <Alert kind="info">
      {invite ? (
        <>
          You were invited to join <strong>{invite.projectName}</strong> as {invite.role}. Sign in or {signUp} to join it.
        </>
      ) : (
        <>Sign in or {signUp} to join the project you were invited to.</>
      )}
    </Alert>
  );
}

/** Runs a form's call, keeping what it refused for the fields to show. */
function useSubmit<T>(send: () => Promise<T>, done: (answer: T) => void) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      done(await send());
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const fieldError = (path: string) => (error instanceof ApiError ? error.field(path) : undefined);
  const message = error instanceof ApiError && error.fields.length > 0 ? null : error ? describeError(error) : null;
  return { onSubmit, busy, fieldError, message };
}

export function SignInPage() {
  const { started } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = nextOf(params);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useSubmit(
    () => call('createSession', { body: { email, password } }),
    (answer) => {
      started(answer);
      void navigate(next ?? '/');
    },
  );
  return (
    <Card title="Sign in to Gantry">
      <InviteNotice next={next} />
      <form onSubmit={form.onSubmit}>
        {form.message && <Alert>{form.message}</Alert>}
        <Field label="E-mail" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} error={form.fieldError('email')} />
        <Field label="Password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} error={form.fieldError('password')} />
        <button type="submit" disabled={form.busy}>
          Sign in
        </button>
      </form>
      <p className="muted">
        <Link to={`/sign-up${nextQuery(next)}`}>Create an account</Link> · <Link to="/forgot-password">Forgot your password?</Link>
      </p>
    </Card>
  );
}

export function SignUpPage() {
  const [params] = useSearchParams();
  const next = nextOf(params);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [sent, setSent] = useState(false);
  const form = useSubmit(() => call('signUp', { body: { name: name || undefined, email, password, locale: browserLocale(), next: next ?? undefined } }), () => setSent(true));
  if (sent) {
    return (
      <Card title="Check your e-mail">
        <Alert kind="info">
          We sent a link to {email}. Open it to verify your address and {inviteTokenOf(next) ? 'join the project you were invited to' : 'start planning'}.
        </Alert>
      </Card>
    );
  }
  return (
    <Card title="Create your Gantry account">
      <InviteNotice next={next} />
      <form onSubmit={form.onSubmit}>
        {form.message && <Alert>{form.message}</Alert>}
        <Field label="Name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} error={form.fieldError('name')} />
        <Field label="E-mail" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} error={form.fieldError('email')} />
        <Field label="Password (at least 10 characters)" type="password" autoComplete="new-password" required minLength={10} value={password} onChange={(e) => setPassword(e.target.value)} error={form.fieldError('password')} />
        <button type="submit" disabled={form.busy}>
          Create account
        </button>
      </form>
      <p className="muted">
        Already have an account? <Link to={`/sign-in${nextQuery(next)}`}>Sign in</Link>
      </p>
    </Card>
  );
}

/**
 * The link of the verification e-mail: verifies the address, signs the person in and goes on
 * (to `next`, the page sign-up was asked from). A link used before, opened while signed in
 * (its address is verified then), goes on from there too.
 */
export function VerifyEmailPage() {
  const { user, started } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = nextOf(params);
  const [error, setError] = useState<string | null>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    call('verifyEmail', { body: { token: params.get('token') ?? '' } }).then(
      (answer) => {
        started(answer);
        void navigate(next ?? '/', { replace: true });
      },
      (caught: unknown) => setError(describeError(caught)),
    );
  }, [params, next, started, navigate]);
  if (error && user) {
    return (
      <Card title="Your e-mail address is already verified">
        <p>This link was used already. You are signed in as {user.email}.</p>
        <p>
          <Link to={next ?? '/'}>{next ? 'Go on where you were going' : 'Go to your projects'}</Link>
        </p>
      </Card>
    );
  }
  return (
    <Card title="Verifying your e-mail">
      {error && user === null ? (
        <>
          <Alert>This link cannot be used: {error}</Alert>
          <p className="muted">
            <Link to={`/sign-in${nextQuery(next)}`}>Sign in</Link>: if your address is not verified yet, a new link is mailed to you.
          </p>
        </>
      ) : (
        <p>One moment…</p>
      )}
    </Card>
  );
}

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const form = useSubmit(() => call('requestPasswordReset', { body: { email } }), () => setSent(true));
  return (
    <Card title="Reset your password">
      {sent ? (
        <Alert kind="info">If {email} has an account, a link to choose a new password is on its way.</Alert>
      ) : (
        <form onSubmit={form.onSubmit}>
          {form.message && <Alert>{form.message}</Alert>}
          <Field label="E-mail" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} error={form.fieldError('email')} />
          <button type="submit" disabled={form.busy}>
            Send the link
          </button>
        </form>
      )}
    </Card>
  );
}

export function ResetPasswordPage() {
  const { started } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [password, setPassword] = useState('');
  const form = useSubmit(
    () => call('completePasswordReset', { body: { token: params.get('token') ?? '', password } }),
    (answer) => {
      started(answer);
      void navigate(nextOf(params) ?? '/', { replace: true });
    },
  );
  return (
    <Card title="Choose a new password">
      <form onSubmit={form.onSubmit}>
        {form.message && <Alert>{form.message}</Alert>}
        {form.fieldError('token') && <Alert>This link cannot be used: {form.fieldError('token')}</Alert>}
        <Field label="New password (at least 10 characters)" type="password" autoComplete="new-password" required minLength={10} value={password} onChange={(e) => setPassword(e.target.value)} error={form.fieldError('password')} />
        <button type="submit" disabled={form.busy}>
          Save and sign in
        </button>
      </form>
    </Card>
  );
}
