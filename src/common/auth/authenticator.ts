import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiKeyVerifier } from './api-key-verifier';
import { ADMIN, type Principal } from './principal';

/** Finds the principal of a managed API key (provided by the api-keys module), or null. */
export interface ApiKeyStore {
  findPrincipal(token: string): Promise<Principal | null>;
}

/**
 * Who a request's bearer token names: the administrator (the environment's API_KEY, checked in
 * constant time without any I/O) or a key managed through the API, looked up in the store the
 * api-keys module registers. Null for no, a malformed, an unknown, a revoked or an expired key.
 */
@Injectable()
export class Authenticator {
  private store: ApiKeyStore | null = null;

  constructor(private readonly verifier: ApiKeyVerifier) {}

  useStore(store: ApiKeyStore): void {
    this.store = store;
  }

  async authenticate(request: Pick<Request, 'headers' | 'rawHeaders'>): Promise<Principal | null> {
    const token = this.verifier.bearerToken(request.headers, request.rawHeaders);
    if (token === null) return null;
    if (this.verifier.isAdmin(token)) return ADMIN;
    return this.store ? this.store.findPrincipal(token) : null;
  }
}
