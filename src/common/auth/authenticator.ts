import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiKeyVerifier } from './api-key-verifier';
import { ADMIN, type Principal } from './principal';

/** Provided by the api-keys module. */
export interface ApiKeyStore {
  findPrincipal(token: string): Promise<Principal | null>;
}

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
