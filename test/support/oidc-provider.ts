import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { CompactSign, decodeJwt, exportJWK, generateKeyPair, type CryptoKey, type JWTPayload } from 'jose';
import Provider, {
  interactionPolicy,
  type InteractionDetails,
  type InteractionResults,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import { createMemoryAdapter } from 'oidc-provider/lib/adapters/memory_adapter.js';
import { LoopbackServer } from './loopback-server';

/** Who signs in at the provider; its claims reach the ID token by scope (email, profile, groups). */
export interface TestAccount {
  sub: string;
  email?: string;
  name?: string;
  preferred_username?: string;
  groups?: string[];
}

/** How the next ID tokens are spoiled, each a reason for the relying party to refuse them. */
export type TokenFault = 'expired' | 'wrong_audience' | 'unknown_key' | null;

export interface TestOidcClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  postLogoutRedirectUri: string;
}

const SIGNING_KID = 'test-oidc-key';

/**
 * A certified OpenID provider (panva's oidc-provider) on a free loopback port, for the sign-in tests:
 * one confidential client, authorization code with PKCE (S256), ID tokens signed by a key the test holds
 * so that it can re-sign them wrong (`setTokenFault`). Its interactions finish at once as the current
 * account, so a browser and `authorize()` alike just follow redirects back to the redirect URI.
 */
export class TestOidcProvider extends LoopbackServer {
  issuer = '';
  private provider: Provider | undefined;
  private serve: ((req: http.IncomingMessage, res: http.ServerResponse) => void) | undefined;
  private readonly accounts = new Map<string, TestAccount>();
  private account: TestAccount = { sub: 'test-user' };
  private fault: TokenFault = null;
  private down = false;

  private constructor(
    private readonly client: TestOidcClient,
    private readonly signingKey: CryptoKey,
  ) {
    super();
    this.setAccount(this.account);
  }

  static async start(client: TestOidcClient): Promise<TestOidcProvider> {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const server = await new TestOidcProvider(client, privateKey).start();
    server.issuer = server.url('');
    server.provider = await server.createProvider();
    server.serve = server.provider.callback();
    return server;
  }

  /** The next sign-in completes as `account`; tokens already granted to its sub read these claims too. */
  setAccount(account: TestAccount): void {
    this.account = account;
    this.accounts.set(account.sub, account);
  }

  setTokenFault(fault: TokenFault): void {
    this.fault = fault;
  }

  /** While down, every request, discovery included, is answered 503. */
  setDown(down: boolean): void {
    this.down = down;
  }

  /**
   * The provider's side of a sign-in without a browser: follows `authorizationUrl` (changed first by
   * `tamper`) through the provider's redirects, cookies carried between hops, and answers the URL it
   * finally sends the browser to: `<redirectUri>?code=...&state=...&iss=...` (or `?error=...`).
   */
  async authorize(authorizationUrl: string, tamper?: (url: URL) => void): Promise<string> {
    const url = new URL(authorizationUrl);
    tamper?.(url);
    const cookies = new Map<string, string>();
    let next = url.href;
    for (let hop = 0; hop < 10; hop += 1) {
      if (next.startsWith(this.client.redirectUri)) return next;
      const response = await fetch(next, { redirect: 'manual', headers: { cookie: cookieHeader(cookies) } });
      keepCookies(cookies, response.headers.getSetCookie());
      const location = response.headers.get('location');
      if (!location) {
        throw new Error(`the provider answered ${response.status} at ${next}: ${await response.text()}`);
      }
      next = new URL(location, next).href;
    }
    throw new Error(`more than 10 redirects from ${authorizationUrl}`);
  }

  protected handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (this.down || !this.provider || !this.serve) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('provider down');
    } else if (req.url?.startsWith('/interaction/')) {
      this.finishInteraction(this.provider, req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
    } else {
      this.serve(req, res);
    }
  }

  private async createProvider(): Promise<Provider> {
    const jwk = { ...(await exportJWK(this.signingKey)), kid: SIGNING_KID, alg: 'RS256', use: 'sig' };
    const provider = new Provider(this.issuer, {
      // Named, so that neither the adapter nor the lifetimes are announced on the console as defaults.
      adapter: createMemoryAdapter(15),
      ttl: {
        AccessToken: 3600,
        AuthorizationCode: 60,
        IdToken: 3600,
        Interaction: 600,
        Session: 86400,
        Grant: 86400,
      },
      clients: [
        {
          client_id: this.client.clientId,
          client_secret: this.client.clientSecret,
          redirect_uris: [this.client.redirectUri],
          post_logout_redirect_uris: [this.client.postLogoutRedirectUri],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      jwks: { keys: [jwk] },
      cookies: { keys: [randomBytes(32).toString('base64url')] },
      scopes: ['openid', 'email', 'profile', 'groups'],
      claims: {
        openid: ['sub'],
        email: ['email'],
        profile: ['name', 'preferred_username'],
        groups: ['groups'],
      },
      // The service reads who signed in from the ID token alone, never from userinfo.
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      interactions: { policy: this.signInAgainWhenTheAccountChanges() },
      features: {
        devInteractions: { enabled: false },
        rpInitiatedLogout: { enabled: true, logoutSource: confirmLogoutAtOnce },
      },
      findAccount: (_ctx, sub) => {
        const account = this.accounts.get(sub);
        return account && { accountId: sub, claims: () => ({ ...account }) };
      },
      renderError: (ctx, out) => {
        ctx.type = 'text/plain';
        ctx.body = Object.entries(out)
          .map(([key, value]) => `${key}: ${value}`)
          .join('\n');
      },
    });
    provider.use(async (ctx, next) => {
      await next();
      await this.spoilIdToken(ctx);
    });
    return provider;
  }

  /** A browser keeps the provider's session: after setAccount to another sub it must sign in again. */
  private signInAgainWhenTheAccountChanges(): ReturnType<typeof interactionPolicy.base> {
    const policy = interactionPolicy.base();
    const changed = (ctx: KoaContextWithOIDC): boolean =>
      ctx.oidc.session.accountId !== undefined && ctx.oidc.session.accountId !== this.account.sub;
    policy
      .get('login')
      ?.checks.push(new interactionPolicy.Check('account_changed', 'another test account', changed));
    return policy;
  }

  /** Login as the current account, then consent to whatever was asked: no page, a redirect back. */
  private async finishInteraction(
    provider: Provider,
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    const result: InteractionResults =
      details.prompt.name === 'login'
        ? { login: { accountId: this.account.sub } }
        : { consent: { grantId: await grantAsked(provider, details) } };
    await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  }

  /** The token endpoint's id_token re-signed with the fault set; the rest of the answer untouched. */
  private async spoilIdToken(ctx: KoaContextWithOIDC): Promise<void> {
    const body = ctx.body as { id_token?: unknown } | undefined;
    if (!this.fault || ctx.path !== '/token' || ctx.status !== 200 || typeof body?.id_token !== 'string') {
      return;
    }
    const claims = decodeJwt(body.id_token);
    const now = Math.floor(Date.now() / 1000);
    switch (this.fault) {
      case 'expired':
        // An hour ago: past any clock tolerance of a relying party.
        body.id_token = await sign(
          { ...claims, iat: now - 7200, exp: now - 3600 },
          SIGNING_KID,
          this.signingKey,
        );
        break;
      case 'wrong_audience':
        body.id_token = await sign({ ...claims, aud: 'another-client' }, SIGNING_KID, this.signingKey);
        break;
      case 'unknown_key': {
        const { privateKey } = await generateKeyPair('RS256');
        body.id_token = await sign(claims, 'unknown-key', privateKey);
        break;
      }
    }
  }
}

async function grantAsked(provider: Provider, details: InteractionDetails): Promise<string> {
  const grant =
    (details.grantId && (await provider.Grant.find(details.grantId))) ||
    new provider.Grant({ accountId: details.session?.accountId ?? '', clientId: details.params.client_id });
  const { missingOIDCScope, missingOIDCClaims } = details.prompt.details;
  if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '));
  if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims);
  return grant.save();
}

function sign(claims: JWTPayload, kid: string, key: CryptoKey): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
    .setProtectedHeader({ alg: 'RS256', kid })
    .sign(key);
}

/** The provider's confirmation page for RP-initiated logout, submitted by itself as "yes". */
function confirmLogoutAtOnce(ctx: KoaContextWithOIDC, form: string): void {
  ctx.type = 'html';
  ctx.body = `<!DOCTYPE html><html><body>${form.replace('</form>', '<input type="hidden" name="logout" value="yes"></form>')}
    <script>document.forms[0].submit()</script></body></html>`;
}

function cookieHeader(cookies: Map<string, string>): string {
  return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
}

/** A jar of one origin: paths ignored (the provider's cookie names differ), an emptied cookie dropped. */
function keepCookies(cookies: Map<string, string>, setCookies: string[]): void {
  for (const setCookie of setCookies) {
    const [pair] = setCookie.split(';');
    const at = pair.indexOf('=');
    const [name, value] = [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
    if (value && !/expires=Thu, 01 Jan 1970/i.test(setCookie)) cookies.set(name, value);
    else cookies.delete(name);
  }
}
