import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { clientAddress, FailedAuthentications } from '../rate-limit/failed-authentications';
import { ApiKeyVerifier } from './api-key-verifier';
import { ADMIN, type Principal } from './principal';
import { cookieToken, SESSION_COOKIE } from './session-cookie';

/** Provided by the api-keys module. */
export interface ApiKeyStore {
  /**
   * `beforeLookup` is called before the store queries for a token it has never found; it throws to
   * refuse the request instead (docs/reference/rate-limits.md#17-failed-authentications). `address`
   * is the client's (Express's `request.ip`, after TRUST_PROXY): a key bound to addresses is found
   * only from them (docs/reference/keys-and-audit.md#41-where-a-key-may-be-used-from).
   */
  findPrincipal(token: string, beforeLookup?: () => void, address?: string): Promise<Principal | null>;
}

/** Provided by the sessions module: a person signed in (docs/access.md#sessions-and-csrf). */
export interface SessionStore {
  /** The person of a session cookie's value with what their roles grant now; null: no live session. */
  findPrincipal(token: string): Promise<Principal | null>;
}

/**
 * docs/reference/auth.md; every failure counts against the client address's budget (429 past it). The
 * client address is Express's `request.ip` (TRUST_PROXY decides whether X-Forwarded-For names it), the
 * one the request log and the failure budget show.
 */
@Injectable()
export class Authenticator {
  private store: ApiKeyStore | null = null;
  private sessions: SessionStore | null = null;

  constructor(
    private readonly verifier: ApiKeyVerifier,
    private readonly failures: FailedAuthentications,
  ) {}

  useStore(store: ApiKeyStore): void {
    this.store = store;
  }

  useSessions(sessions: SessionStore): void {
    this.sessions = sessions;
  }

  /**
   * A bearer token when the request has an Authorization header, else the session cookie: a key's
   * request never falls back to a cookie the browser happens to hold.
   */
  async authenticate(request: Pick<Request, 'headers' | 'rawHeaders' | 'ip'>): Promise<Principal | null> {
    const token = this.verifier.bearerToken(request.headers, request.rawHeaders);
    if (token !== null && this.verifier.isAdmin(token)) return ADMIN;
    const address = clientAddress(request.ip);
    const cookie =
      request.headers.authorization === undefined
        ? cookieToken(request.headers.cookie, SESSION_COOKIE)
        : null;
    if (cookie !== null && this.sessions) {
      this.failures.assertWithinBudget(address);
      const person = await this.sessions.findPrincipal(cookie);
      if (person === null) await this.failures.record(address);
      return person;
    }
    const principal =
      token !== null && this.store
        ? await this.store.findPrincipal(token, () => this.failures.assertWithinBudget(address), request.ip)
        : null;
    if (principal === null) await this.failures.record(address);
    return principal;
  }
}
