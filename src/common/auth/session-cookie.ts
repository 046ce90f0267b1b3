import { hash, randomBytes } from 'node:crypto';
import type { Response } from 'express';

/** docs/access.md#sessions-and-csrf: `__Host-`: Secure, Path=/, no Domain: only this origin ever gets it. */
export const SESSION_COOKIE = '__Host-relayer_session';
/** Holds a sign-in's `state` from the redirect to the provider until its callback (SameSite=Lax: the callback comes from the provider's site). */
export const SIGN_IN_COOKIE = '__Host-relayer_sign_in';
export const SIGN_IN_MAX_AGE_MS = 10 * 60_000;

/** 32 random bytes, base64url: a session's cookie value, a sign-in's state, nonce and PKCE verifier. */
export const newToken = (): string => randomBytes(32).toString('base64url');
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const digestOf = (token: string): string => hash('sha256', token, 'hex');

/** Derived from the cookie, so every instance answers and checks the same one, and nothing more is stored. */
export const csrfTokenOf = (token: string): string => hash('sha256', `csrf:${token}`, 'base64url');

/** The value of the cookie `name` in a Cookie header when it has a token's shape, else null. */
export function cookieToken(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) {
      const value = pair.slice(at + 1).trim();
      return TOKEN.test(value) ? value : null;
    }
  }
  return null;
}

export function setCookie(
  response: Response,
  name: string,
  value: string,
  options: { maxAgeMs: number; sameSite: 'strict' | 'lax' },
): void {
  response.cookie(name, value, {
    httpOnly: true,
    secure: true,
    sameSite: options.sameSite,
    path: '/',
    maxAge: options.maxAgeMs,
  });
}

export function clearCookie(response: Response, name: string, sameSite: 'strict' | 'lax'): void {
  response.clearCookie(name, { httpOnly: true, secure: true, sameSite, path: '/' });
}
