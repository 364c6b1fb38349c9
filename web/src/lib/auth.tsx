import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { AuthUser, LoginResponse } from '@gremienportal/contracts/auth';
import type { TwoFactorRequired } from '@gremienportal/contracts/two-factor';
import { isAdmin as hasAdminRole } from '@gremienportal/contracts/rules';
import {
  ApiError,
  api,
  clearStoredAuth,
  setUnauthorizedHandler,
  TOKEN_STORAGE_KEY,
  TRANSPORT_MESSAGES,
  USER_STORAGE_KEY,
} from './api-client';
import { forgetDeviceToken, readDeviceToken } from './device-token';

export type { AuthUser, TwoFactorRequired };

export const SESSION_ENDED_MESSAGE = 'Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.';

export type SignOutReason = 'expired' | 'logout';

type SignOutListener = () => void;
const signOutListeners = new Set<SignOutListener>();

/**
 * Called whenever the signed-in user goes away (logout, 401, another tab), before the UI
 * changes: caches of the signed-in part register here so nothing stays for the next user.
 */
export function onSignOut(listener: SignOutListener): () => void {
  signOutListeners.add(listener);
  return () => {
    signOutListeners.delete(listener);
  };
}

function notifySignOut(): void {
  for (const listener of signOutListeners) listener();
}

interface AuthState {
  token: string | null;
  user: AuthUser | null;
}

const SIGNED_OUT: AuthState = { token: null, user: null };

function isAuthUser(value: unknown): value is AuthUser {
  if (typeof value !== 'object' || value === null) return false;
  const user = value as Record<string, unknown>;
  return (
    typeof user.id === 'number' &&
    typeof user.email === 'string' &&
    typeof user.firstname === 'string' &&
    typeof user.lastname === 'string' &&
    Array.isArray(user.roles) &&
    user.roles.every((role) => typeof role === 'string')
  );
}

function withDerivedName(user: AuthUser): AuthUser {
  return { ...user, title: user.title ?? '', name: `${user.firstname} ${user.lastname}`.trim() };
}

/** Signed in means: a token and a readable user are stored (product.md P4). */
export function readStoredAuth(): AuthState {
  try {
    const token = window.localStorage.getItem(TOKEN_STORAGE_KEY);
    const rawUser = window.localStorage.getItem(USER_STORAGE_KEY);
    if (!token || !rawUser) return SIGNED_OUT;
    const user: unknown = JSON.parse(rawUser);
    return isAuthUser(user) ? { token, user: withDerivedName(user) } : SIGNED_OUT;
  } catch {
    return SIGNED_OUT;
  }
}

export function storeAuth(token: string, user: AuthUser): void {
  window.localStorage.setItem(TOKEN_STORAGE_KEY, token);
  window.localStorage.setItem(USER_STORAGE_KEY, JSON.stringify(user));
}

export interface AuthContextValue {
  isAuthenticated: boolean;
  user: AuthUser | null;
  isAdmin: boolean;
  /**
   * The password step: the signed-in user, or the challenge of the second step (decision 126), which
   * ends with `completeLogin`. Throws an ApiError on failure (401 wrong credentials, 429, …).
   */
  login: (email: string, password: string) => Promise<AuthUser | TwoFactorRequired>;
  /** Signs in with a token answer (of the second step); throws on an unreadable answer. */
  completeLogin: (response: LoginResponse) => AuthUser;
  /** Ends the session on the server (its failure is ignored) and signs out locally. */
  logout: () => Promise<void>;
  /**
   * Why the user is signed out, until the next login: 'expired' after a 401 (the login page says
   * so), 'logout' after "Abmelden" (no return to the last page). Null after a reload.
   */
  signOutReason: SignOutReason | null;
  /** After the account page changed title, names or e-mail. */
  updateStoredUser: (changes: Partial<AuthUser>) => void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>(readStoredAuth);
  const [signOutReason, setSignOutReason] = useState<SignOutReason | null>(null);

  const signOutLocally = useCallback((reason: SignOutReason | null) => {
    clearStoredAuth();
    notifySignOut();
    setSignOutReason(reason);
    setState(SIGNED_OUT);
  }, []);

  useEffect(
    () =>
      setUnauthorizedHandler(() => {
        const wasSignedIn = readStoredAuth().token !== null;
        signOutLocally(wasSignedIn ? 'expired' : null);
      }),
    [signOutLocally],
  );

  // Signing in or out in another tab applies here too.
  const stateRef = useRef(state);
  useEffect(() => {
    stateRef.current = state;
  }, [state]);
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== null && event.key !== TOKEN_STORAGE_KEY && event.key !== USER_STORAGE_KEY) return;
      const current = stateRef.current;
      const next = readStoredAuth();
      if (current.token === next.token && current.user?.id === next.user?.id) return;
      if (current.token !== null) notifySignOut();
      setState(next);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const completeLogin = useCallback((response: LoginResponse) => {
    if (!response || typeof response.access_token !== 'string' || !isAuthUser(response.user)) {
      throw new ApiError(0, TRANSPORT_MESSAGES.invalidResponse, { kind: 'invalid-response' });
    }
    const user = withDerivedName(response.user);
    storeAuth(response.access_token, user);
    setSignOutReason(null);
    setState({ token: response.access_token, user });
    return user;
  }, []);

  const login = useCallback(
    async (email: string, password: string) => {
      const deviceToken = readDeviceToken(email);
      const response = await api.post<LoginResponse | TwoFactorRequired>(
        '/auth/login',
        { email, password, device_token: deviceToken },
        { signOutOn401: false },
      );
      if (response && 'two_factor_required' in response && response.two_factor_required) {
        // A trusted device is not asked; asked anyway, its token has expired or was withdrawn.
        if (deviceToken) forgetDeviceToken(email);
        return response;
      }
      return completeLogin(response as LoginResponse);
    },
    [completeLogin],
  );

  const logout = useCallback(async () => {
    try {
      await api.post('/auth/logout', undefined, { signOutOn401: false, timeoutMs: 5_000 });
    } catch {
      // The session ends locally in any case; an expired token is already invalid on the server.
    }
    signOutLocally('logout');
  }, [signOutLocally]);

  const updateStoredUser = useCallback((changes: Partial<AuthUser>) => {
    const current = stateRef.current;
    if (!current.token || !current.user) return;
    const user = withDerivedName({ ...current.user, ...changes, id: current.user.id });
    storeAuth(current.token, user);
    const next = { token: current.token, user };
    stateRef.current = next;
    setState(next);
  }, []);

  const value = useMemo<AuthContextValue>(() => {
    const isAuthenticated = state.token !== null && state.user !== null;
    return {
      isAuthenticated,
      user: state.user,
      isAdmin: isAuthenticated && hasAdminRole(state.user?.roles ?? []),
      signOutReason,
      login,
      completeLogin,
      logout,
      updateStoredUser,
    };
  }, [state, signOutReason, login, completeLogin, logout, updateStoredUser]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth muss innerhalb des AuthProvider verwendet werden.');
  return context;
}
