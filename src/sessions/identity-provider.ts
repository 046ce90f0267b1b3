import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import * as oidc from 'openid-client';
import { ServiceUnavailableError } from '../common/errors/domain-errors';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';

export type OidcSettings = NonNullable<AppConfig['signIn']['oidc']>;

/** Discovery retried at most this far apart while the provider is unreachable (docs/access.md#signing-in-with-your-identity-provider). */
const MAX_RETRY_MS = 30_000;
const FIRST_RETRY_MS = 1000;
/** One request to the provider (discovery, token, JWKS). */
const REQUEST_TIMEOUT_S = 10;

/** What a sign-in learnt of the person from their verified ID token. */
export interface SignedInPerson {
  readonly issuer: string;
  readonly subject: string;
  readonly email: string | null;
  /** Email, else preferred_username, else sub. */
  readonly name: string;
  readonly displayName: string | null;
  readonly groups: readonly string[];
}

/** What the callback checks the provider's answer against: kept by the sign-in attempt. */
export interface SignInChecks {
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
}

/** Why a callback was refused, as `Sign-in failed: <reason>` says it. */
export class SignInRefused extends Error {}

/**
 * The identity provider, through openid-client (docs/dependencies.md): discovery at start, retried
 * while it fails; the authorization URL with PKCE, state and nonce; the code exchanged and the ID
 * token checked (issuer, audience, expiry, nonce, and its signature against the provider's JWKS,
 * which openid-client checks only with enableNonRepudiationChecks).
 */
@Injectable()
export class IdentityProvider implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('IdentityProvider');
  private readonly settings: OidcSettings | null;
  private configuration: oidc.Configuration | null = null;
  private retry: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.settings = config.signIn.oidc;
  }

  get configured(): boolean {
    return this.settings !== null;
  }

  /** The name the console's button shows. */
  get name(): string | null {
    return this.settings?.name ?? null;
  }

  onApplicationBootstrap(): void {
    if (this.settings) void this.discover(FIRST_RETRY_MS);
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
  }

  /** Where the browser goes to sign in. */
  async authorizationUrl(checks: SignInChecks): Promise<URL> {
    const { configuration, settings } = this.ready();
    return oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: callbackUrl(settings),
      scope: settings.scopes,
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
    });
  }

  /** The callback's code exchanged and its ID token checked; SignInRefused saying why, else the person. */
  async signIn(callback: URL, checks: SignInChecks): Promise<SignedInPerson> {
    const { configuration, settings } = this.ready();
    // The URL the provider redirected to, as registered: the service may sit behind a proxy.
    const current = new URL(callbackUrl(settings));
    current.search = callback.search;
    let claims: oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (error) {
      throw refusal(error);
    }
    if (!claims) throw new SignInRefused('the provider answered no ID token');
    return personOf(claims, settings.groupsClaim);
  }

  /** The provider's end-session URL for the browser, or null when it has none. */
  endSessionUrl(): string | null {
    if (!this.settings || !this.configuration?.serverMetadata().end_session_endpoint) return null;
    return oidc
      .buildEndSessionUrl(this.configuration, {
        client_id: this.settings.clientId,
        post_logout_redirect_uri: consoleUrl(this.settings),
      })
      .toString();
  }

  /** Where a signed-in person lands. */
  consoleUrl(): string {
    return this.settings ? consoleUrl(this.settings) : '/console/';
  }

  private ready(): { configuration: oidc.Configuration; settings: OidcSettings } {
    if (!this.settings) throw new SignInRefused('no identity provider is configured');
    if (!this.configuration) {
      throw new ServiceUnavailableError('Service Unavailable: the identity provider is unreachable');
    }
    return { configuration: this.configuration, settings: this.settings };
  }

  private async discover(nextRetryMs: number): Promise<void> {
    const settings = this.settings;
    if (!settings || this.stopped) return;
    try {
      const insecure = new URL(settings.issuer).protocol === 'http:';
      const configuration = await oidc.discovery(
        new URL(settings.issuer),
        settings.clientId,
        { client_secret: settings.clientSecret },
        oidc.ClientSecretBasic(settings.clientSecret),
        { execute: insecure ? [oidc.allowInsecureRequests] : [], timeout: REQUEST_TIMEOUT_S },
      );
      oidc.enableNonRepudiationChecks(configuration);
      this.configuration = configuration;
      this.logger.log(`identity provider ${settings.issuer} discovered`);
    } catch (error) {
      this.logger.warn(
        `identity provider ${settings.issuer} unreachable (${describe(error)}); retrying in ${nextRetryMs / 1000} s`,
      );
      if (this.stopped) return;
      this.retry = setTimeout(() => void this.discover(Math.min(MAX_RETRY_MS, nextRetryMs * 2)), nextRetryMs);
      this.retry.unref();
    }
  }
}

const MAX_CLAIM_LENGTH = 255;

const callbackUrl = (settings: OidcSettings): string => `${settings.publicUrl}/api/v1/auth/callback`;
const consoleUrl = (settings: OidcSettings): string => `${settings.publicUrl}/console/`;

function personOf(claims: oidc.IDToken, groupsClaim: string): SignedInPerson {
  // <issuer>#<sub> is the person's id in sessions and the audit trail (255 characters).
  if (claims.iss.length + 1 + claims.sub.length > MAX_CLAIM_LENGTH) {
    throw new SignInRefused('the ID token’s issuer and subject are longer than 254 characters');
  }
  // Claims are the provider's users' own text: kept to what a column and a message hold.
  const text = (value: unknown): string | null =>
    typeof value === 'string' && value !== '' ? value.slice(0, MAX_CLAIM_LENGTH) : null;
  const email = text(claims.email);
  const raw = claims[groupsClaim];
  const groups = Array.isArray(raw)
    ? raw.filter((g): g is string => typeof g === 'string')
    : text(raw)
      ? [raw as string]
      : [];
  return {
    issuer: claims.iss,
    subject: claims.sub,
    email,
    name: email ?? text(claims.preferred_username) ?? claims.sub,
    displayName: text(claims.name),
    groups,
  };
}

/** What openid-client's checks of the ID token mean to a person (the others by code). */
const CLIENT_ERRORS: Readonly<Record<string, string>> = {
  OAUTH_JWT_TIMESTAMP_CHECK_FAILED: 'the ID token has expired',
  OAUTH_JWS_SIGNATURE_VERIFICATION_FAILED: 'the ID token is not signed by a key of the provider',
  OAUTH_KEY_SELECTION_FAILED: 'the ID token is not signed by a key of the provider',
};

/** A short reason, never a token or a code: openid-client's error codes and the provider's `error`. */
function refusal(error: unknown): Error {
  if (error instanceof oidc.ResponseBodyError) {
    return new SignInRefused(`the provider refused the code (${error.error})`);
  }
  if (error instanceof oidc.AuthorizationResponseError) {
    return new SignInRefused(`the provider answered ${error.error}`);
  }
  if (error instanceof oidc.ClientError) {
    // openid-client wraps oauth4webapi's error, whose cause names the claim compared.
    const claim = (error.cause as { cause?: { claim?: unknown } } | undefined)?.cause?.claim;
    const code = error.code ?? '';
    if (code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED') {
      return new SignInRefused(
        `the ID token's ${typeof claim === 'string' ? claim : 'claims'} claim does not match this sign-in`,
      );
    }
    if (code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || code === 'OAUTH_RESPONSE_IS_NOT_JSON') {
      return new ServiceUnavailableError('Service Unavailable: the identity provider is unreachable');
    }
    return new SignInRefused(
      CLIENT_ERRORS[code] ?? `the provider's answer was refused (${code || 'invalid'})`,
    );
  }
  if (error instanceof TypeError || (error instanceof Error && error.name === 'AbortError')) {
    return new ServiceUnavailableError('Service Unavailable: the identity provider is unreachable');
  }
  return new SignInRefused('the provider’s answer was refused');
}

function describe(error: unknown): string {
  return error instanceof Error
    ? error.cause instanceof Error
      ? error.cause.message
      : error.message
    : 'unknown error';
}
