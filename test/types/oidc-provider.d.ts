// oidc-provider ships no types and @types/oidc-provider trails its majors: the little the tests'
// provider (test/support/oidc-provider.ts) uses of version 9, declared by hand from its lib/.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface KoaContextWithOIDC {
    path: string;
    status: number;
    body: unknown;
    type: string;
    host: string;
    oidc: { session: { accountId?: string } };
  }

  export interface Account {
    accountId: string;
    claims(): Record<string, unknown>;
  }

  export class Check {
    constructor(reason: string, description: string, check: (ctx: KoaContextWithOIDC) => boolean);
  }
  export interface Prompt {
    name: string;
    checks: Check[];
  }
  export const interactionPolicy: {
    Check: typeof Check;
    base(): Prompt[] & { get(name: string): Prompt | undefined };
  };

  export interface InteractionDetails {
    prompt: { name: string; details: { missingOIDCScope?: string[]; missingOIDCClaims?: string[] } };
    params: { client_id: string; [name: string]: unknown };
    session?: { accountId: string };
    grantId?: string;
  }

  export interface InteractionResults {
    login?: { accountId: string };
    consent?: { grantId: string };
  }

  export interface Configuration {
    adapter: unknown;
    ttl: Record<string, number>;
    clients: Record<string, unknown>[];
    jwks: { keys: Record<string, unknown>[] };
    cookies: { keys: string[] };
    scopes: string[];
    claims: Record<string, string[]>;
    conformIdTokenClaims: boolean;
    pkce: { required: () => boolean };
    features: Record<string, Record<string, unknown>>;
    interactions: { policy: Prompt[] };
    findAccount(ctx: KoaContextWithOIDC, sub: string): Account | undefined;
    renderError(ctx: KoaContextWithOIDC, out: Record<string, string>, error: Error): void;
  }

  class Grant {
    constructor(init: { accountId: string; clientId: string });
    static find(id: string): Promise<Grant | undefined>;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Partial<Configuration>);
    readonly Grant: typeof Grant;
    use(middleware: (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>): this;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResults,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}

declare module 'oidc-provider/lib/adapters/memory_adapter.js' {
  /** The in-memory adapter, asked for by name: the default one warns it is no production store. */
  export function createMemoryAdapter(clockTolerance: number): unknown;
}
