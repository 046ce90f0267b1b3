import { signal } from '@preact/signals';
import createClient from 'openapi-fetch';
import type { components, paths } from './api/schema';

const STORAGE_KEY = 'relayer-console.api-key';
/**
 * What the console keeps in this tab for the sign-in (the networks read once, console/src/networks.ts),
 * each under this prefix: a sign-in and a sign-out forget it all.
 */
export const SIGNED_IN_STORAGE_PREFIX = 'relayer-console.signed-in.';

/** Who is signed in and what they may do: a key (GET /api/v1/api-keys/self), or a person's session. */
export type Me = components['schemas']['CallerResponse'];

/** The signed-in principal; null while signed out. */
export const me = signal<Me | null>(null);
/** Why the last session ended, shown on the sign-in form. */
export const signOutReason = signal<string | null>(null);

/**
 * A person signed in through the identity provider (docs/access.md#sessions): their session cookie goes
 * by itself, and every request that changes anything carries the session's CSRF token.
 */
export interface Person {
  readonly name: string;
  readonly roles: readonly string[];
  readonly csrfToken: string;
}

/** The signed-in person; null while signed out or signed in with a key. */
export const person = signal<Person | null>(null);

/** How the service offers to sign in (GET /api/v1/auth/methods). */
export type SignInMethods = components['schemas']['SignInMethodsResponse'];

/** null until read. */
export const signInMethods = signal<SignInMethods | null>(null);

/** The key form alone: what a service that cannot say answers. */
const KEY_ONLY: SignInMethods = { oidc: null, api_key: true };

/** Calls of the sign-in itself, outside the API client: nothing signed in is assumed, no 401 signs out. */
const bare = () => createClient<paths>({ baseUrl: window.location.origin });

/** The key, kept in this tab's sessionStorage only: it goes when the tab closes or on sign-out. */
export function storedKey(): string | null {
  return window.sessionStorage.getItem(STORAGE_KEY);
}

/** The CSRF token for the requests that change anything, while a person is signed in. */
export function csrfToken(): string | null {
  return person.value?.csrfToken ?? null;
}

/** Who the calls are made as, for what is kept per caller: the key, or the person's id; null signed out. */
export function caller(): string | null {
  const key = storedKey();
  if (key !== null) return `key:${key}`;
  return person.value !== null && me.value !== null ? `person:${me.value.id}` : null;
}

/**
 * Who is signed in, for what this tab keeps across its documents (a reload): the principal's type and
 * id, never the key's secret; null signed out.
 */
export function principalId(): string | null {
  const principal = me.value;
  return principal === null ? null : `${principal.type}:${principal.id}`;
}

/** How many times this document forgot what it kept for the sign-in (signInEpoch). */
let forgotten = 0;

/**
 * Changes each time the tab forgets what it kept for the sign-in (a sign-out, another key): what a
 * document keeps in memory for the sign-in is kept for this epoch only.
 */
export function signInEpoch(): number {
  return forgotten;
}

/** Forgets what this tab kept for the sign-in. */
function forgetSignedIn(): void {
  forgotten++;
  const storage = window.sessionStorage;
  for (let i = storage.length - 1; i >= 0; i--) {
    const name = storage.key(i);
    if (name?.startsWith(SIGNED_IN_STORAGE_PREFIX)) storage.removeItem(name);
  }
}

/** True when the principal holds the permission (or `*`): controls it may not use are not shown. */
export function can(permission: string): boolean {
  const principal = me.value;
  return (
    principal !== null && (principal.permissions.includes('*') || principal.permissions.includes(permission))
  );
}

/** Signs in with the key if the service accepts it; answers the API's message otherwise. */
export async function signIn(key: string): Promise<string | null> {
  // A client of its own: the key is not stored until the service has accepted it.
  const client = bare();
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
  // Another key than the one this tab signed in with: what the tab kept was the other key's.
  if (storedKey() !== key) forgetSignedIn();
  window.sessionStorage.setItem(STORAGE_KEY, key);
  signOutReason.value = null;
  person.value = null;
  me.value = data.data;
  return null;
}

/**
 * The person's session, when the browser holds a live one (its cookie goes by itself): true once
 * signed in as them.
 */
async function resumePerson(): Promise<boolean> {
  let answer;
  try {
    answer = await bare().GET('/api/v1/auth/session');
  } catch {
    return false;
  }
  const session = answer.data?.data;
  if (session === undefined) return false;
  const { user, roles, permissions, relayer_ids, csrf_token } = session;
  signOutReason.value = null;
  person.value = { name: user.name, roles, csrfToken: csrf_token };
  // What they may do and see, as GET /api/v1/api-keys/self answers for them.
  me.value = {
    type: 'user',
    id: user.id,
    name: user.name,
    permissions,
    ...(relayer_ids ? { relayer_ids } : {}),
    expires_at: null,
  };
  return true;
}

/** Reads how the service offers to sign in, once; the key form alone when it cannot say. */
export async function loadSignInMethods(): Promise<void> {
  if (signInMethods.value !== null) return;
  let methods = KEY_ONLY;
  try {
    const { data } = await bare().GET('/api/v1/auth/methods');
    if (data?.data !== undefined) methods = data.data;
  } catch {
    // The key form still works.
  }
  signInMethods.value = methods;
}

/**
 * Restores the session of this tab: the key it signed in with (a reload keeps it), else the person's
 * session the browser holds; signed out, reads how to sign in.
 */
export async function resume(): Promise<void> {
  const key = storedKey();
  if (key !== null) {
    const problem = await signIn(key);
    if (problem === null) return;
    signOut(
      problem.startsWith('The service does not know')
        ? 'The key of this tab no longer works (revoked, rotated or expired): sign in again.'
        : problem,
    );
  } else if (await resumePerson()) return;
  await loadSignInMethods();
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
  forgetSignedIn();
  signOutReason.value = reason;
  person.value = null;
  me.value = null;
}

/** A call answered 401: the key or the session no longer works. */
export function signedOutByService(): void {
  signOut(
    person.value !== null
      ? 'Your session has ended (it expired, or it was ended elsewhere). Sign in again.'
      : 'The service refused the key (it may have been revoked, rotated or expired). Sign in again.',
  );
}

/**
 * Sign out: a key is forgotten; a person's session is ended at the service, then at the identity
 * provider when it has an end-session page (it sends the browser back to the console).
 */
export async function leave(): Promise<void> {
  const signedIn = person.value;
  if (signedIn === null) return signOut();
  let endSessionUrl: string | null = null;
  try {
    const { data } = await bare().POST('/api/v1/auth/logout', {
      headers: { 'X-CSRF-Token': signedIn.csrfToken },
    });
    endSessionUrl = data?.data?.end_session_url ?? null;
  } catch {
    // Signed out here all the same; the session ends at its idle expiry.
  }
  if (endSessionUrl !== null) return window.location.assign(endSessionUrl);
  signOut();
}
