import { signal } from '@preact/signals';
import createClient from 'openapi-fetch';
import type { components, paths } from './api/schema';

const STORAGE_KEY = 'relayer-console.api-key';

/** Who the signed-in key is and what it may do (GET /api/v1/api-keys/self). */
export type Me = components['schemas']['CallerResponse'];

/** The signed-in key's principal; null while signed out. */
export const me = signal<Me | null>(null);
/** Why the last session ended, shown on the sign-in form. */
export const signOutReason = signal<string | null>(null);

/** The key, kept in this tab's sessionStorage only: it goes when the tab closes or on sign-out. */
export function storedKey(): string | null {
  return window.sessionStorage.getItem(STORAGE_KEY);
}

/** True when the key holds the permission (or `*`): controls it may not use are not shown. */
export function can(permission: string): boolean {
  const principal = me.value;
  return (
    principal !== null && (principal.permissions.includes('*') || principal.permissions.includes(permission))
  );
}

/** Signs in with the key if the service accepts it; answers the API's message otherwise. */
export async function signIn(key: string): Promise<string | null> {
  // A client of its own: the key is not stored until the service has accepted it.
  const client = createClient<paths>({ baseUrl: window.location.origin });
  let answer;
  try {
    answer = await client.GET('/api/v1/api-keys/self', { headers: { Authorization: `Bearer ${key}` } });
  } catch {
    return 'The service did not answer: check that it is running, then try again.';
  }
  const { data, error, response } = answer;
  if (data?.data === undefined) {
    if (response.status === 401)
      return 'The service does not know this key. Check that you copied all of it.';
    const message = (error as { message?: unknown } | undefined)?.message;
    return typeof message === 'string' ? message : `The service answered ${response.status}.`;
  }
  window.sessionStorage.setItem(STORAGE_KEY, key);
  signOutReason.value = null;
  me.value = data.data;
  return null;
}

/** Restores the session of this tab (a reload keeps the key); signs out if the key no longer works. */
export async function resume(): Promise<void> {
  const key = storedKey();
  if (key === null) return;
  const problem = await signIn(key);
  if (problem === null) return;
  signOut(
    problem.startsWith('The service does not know')
      ? 'The key of this tab no longer works (revoked, rotated or expired): sign in again.'
      : problem,
  );
}

/**
 * After the signed-in key rotated itself: the tab goes on with the new secret (the old one stops when
 * its overlap ends, docs/reference/keys-and-audit.md#42-rotation).
 */
export function replaceStoredKey(key: string): void {
  window.sessionStorage.setItem(STORAGE_KEY, key);
}

export function signOut(reason: string | null = null): void {
  window.sessionStorage.removeItem(STORAGE_KEY);
  signOutReason.value = reason;
  me.value = null;
}
