import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ApiError, call, client, type CallResult } from './client';
import { setDisplayLocale } from './format';
import type { User } from './types';

/** What signing in, verifying an address or resetting a password answers. */
type SessionAnswer = CallResult<'getSession'>;

interface SessionState {
  /** Undefined while the first answer is awaited; null when nobody is signed in. */
  user: User | null | undefined;
  /** Keeps what a sign-in, verification or reset answered. */
  started(answer: SessionAnswer): void;
  signOut(): Promise<void>;
  replaceUser(user: User): void;
}

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<User | null | undefined>(undefined);

  const started = useCallback((answer: SessionAnswer) => {
    client.setCsrfToken(answer.csrfToken);
    setUser(answer.user);
  }, []);

  // The first answer never overrides a session a page started meanwhile (a verification link
  // signs in while the question is still on its way).
  useEffect(() => {
    call('getSession').then(
      (answer) => setUser((current) => (current === undefined ? (client.setCsrfToken(answer.csrfToken), answer.user) : current)),
      (error: unknown) => {
        if (!(error instanceof ApiError) || error.status !== 401) console.error(error);
        setUser((current) => (current === undefined ? null : current));
      },
    );
  }, []);

  const signOut = useCallback(async () => {
    await call('deleteSession');
    client.setCsrfToken(null);
    setUser(null);
  }, []);

  // Dates and numbers follow the person's language; the page's lang attribute too (screen readers).
  setDisplayLocale(user?.locale);
  useEffect(() => {
    document.documentElement.lang = user?.locale ?? 'en';
  }, [user?.locale]);

  const value = useMemo(() => ({ user, started, signOut, replaceUser: setUser }), [user, started, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}
