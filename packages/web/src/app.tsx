import type { ReactNode } from 'react';
import { BrowserRouter, Link, Navigate, Route, Routes, useLocation } from 'react-router';
import { ForgotPasswordPage, ResetPasswordPage, SignInPage, SignUpPage, VerifyEmailPage } from './pages/auth-pages';
import { JoinPage } from './pages/join-page';
import { ProjectPage } from './pages/project-page';
import { ProjectsPage } from './pages/projects-page';
import { SettingsPage } from './pages/settings-page';
import { SessionProvider, useSession } from './session';

/** Pages for a signed-in person: the others are sent to sign in, and come back after. */
function SignedIn({ children }: { children: ReactNode }) {
  const { user, signOut } = useSession();
  const location = useLocation();
  if (user === undefined) return <p className="loading">Loading…</p>;
  if (user === null) return <Navigate to={`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return (
    <div className="shell">
      <header className="topbar">
        <Link to="/" className="brand">
          Gantry
        </Link>
        <nav aria-label="Account">
          <Link to="/settings" className="topbar-link">
            {user.name ?? user.email}
          </Link>
          <button type="button" className="link" onClick={() => void signOut()}>
            Sign out
          </button>
        </nav>
      </header>
      {children}
    </div>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <SessionProvider>
        <Routes>
          <Route path="/sign-in" element={<SignInPage />} />
          <Route path="/sign-up" element={<SignUpPage />} />
          <Route path="/verify-email" element={<VerifyEmailPage />} />
          <Route path="/forgot-password" element={<ForgotPasswordPage />} />
          <Route path="/reset-password" element={<ResetPasswordPage />} />
          <Route path="/" element={<SignedIn><ProjectsPage /></SignedIn>} />
          <Route path="/projects/:projectId" element={<SignedIn><ProjectPage /></SignedIn>} />
          <Route path="/projects/:projectId/tasks/:taskId" element={<SignedIn><ProjectPage /></SignedIn>} />
          <Route path="/join/:token" element={<SignedIn><JoinPage /></SignedIn>} />
          <Route path="/settings" element={<SignedIn><SettingsPage /></SignedIn>} />
          <Route path="*" element={<SignedIn><p className="empty">There is no page here. <Link to="/">Your projects</Link></p></SignedIn>} />
        </Routes>
      </SessionProvider>
    </BrowserRouter>
  );
}
