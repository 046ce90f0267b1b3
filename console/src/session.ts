import { signal } from '@preact/signals';

const STORAGE_KEY = 'relayer-console.api-key';

/** Who the signed-in key is and what it may do (GET /api/v1/api-keys/self). */
export interface Me {
  type: 'admin' | 'api_key';
  id: string;
  name: string;
  permissions: string[];
  relayer_ids?: string[];
  expires_at: string | null;
}

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
  let response: Response;
  try {
    response = await fetch('/api/v1/api-keys/self', { headers: { Authorization: `Bearer ${key}` } });
  } catch {
    return 'The service did not answer: check that it is running, then try again.';
  }
  const body = (await response.json().catch(() => null)) as { data?: Me; message?: string } | null;
  if (!response.ok || !body?.data) {
    return response.status === 401
      ? 'The service does not know this key. Check that you copied all of it.'
      : (body?.message ?? `The service answered ${response.status}.`);
  }
  window.sessionStorage.setItem(STORAGE_KEY, key);
  signOutReason.value = null;
  me.value = body.data;
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
