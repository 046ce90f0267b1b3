import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { SessionStore } from '../common/auth/authenticator';
import { unionOf, type Principal } from '../common/auth/principal';
import { RelayerScope } from '../common/auth/relayer-scope';
import { Page, PageQueryDto } from '../common/http/page.dto';
import { RequestContext } from '../common/http/request-context';
import { PollingLoop } from '../common/scheduling/polling-loop';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import { Transactions } from '../database/transactions';
import { RolesService, type Holding } from '../roles';
import { CurrentSessionResponse, SessionResponse } from './dto/session.dto';
import { IdentityProvider, SignInRefused, type SignedInPerson } from './identity-provider';
import { csrfTokenOf, digestOf, newToken, SIGN_IN_MAX_AGE_MS } from '../common/auth/session-cookie';
import { SessionEntity } from './session.entity';
import { noRole, sessionNotFound, SignInFailedError } from './sessions.errors';
import { SessionsRepository } from './sessions.repository';
import { SignInAttemptEntity } from './sign-in-attempt.entity';
import { SignInAttemptsRepository } from './sign-in-attempts.repository';

/** A request moves the idle expiry on at most this often: one write per person every few seconds, not per request. */
const TOUCH_EVERY_MS = 5000;
const SWEEP_EVERY_MS = 3600 * 1000;
/** Ended and expired sessions are kept this long (sessions' answers never show them), then removed. */
const KEEP_DONE_MS = 24 * 3600 * 1000;

export function toSessionResponse(row: SessionEntity): SessionResponse {
  return {
    id: row.id,
    user: userOf(row),
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt.toISOString(),
    idle_expires_at: row.idleExpiresAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
  };
}

const userOf = (row: SessionEntity) => ({ id: row.userId, name: row.userName, email: row.userEmail });

/** The audit actor of a person (docs/access.md#signing-in-with-your-identity-provider). */
const personActor = (person: SignedInPerson) => ({
  type: 'user',
  id: `${person.issuer}#${person.subject}`,
  name: person.name,
});

/**
 * People's sessions (docs/access.md#sessions-and-csrf): started by a sign-in, found by the cookie's digest at
 * every request, their roles read again each time, ended by logout, by an administrator, by their
 * expiries or when no role is left.
 */
@Injectable()
export class SessionsService implements SessionStore, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Sessions');
  private readonly sweeper = new PollingLoop('SessionRetention', () => this.sweep(), SWEEP_EVERY_MS);
  /** Unused sign-ins go within a minute of their 10: at most the login rate limit × 11 minutes of rows. */
  private readonly attemptSweeper = new PollingLoop('SignInAttempts', () => this.sweepAttempts(), 60_000);
  private readonly idleMs: number;
  private readonly maxMs: number;

  constructor(
    private readonly sessions: SessionsRepository,
    private readonly attempts: SignInAttemptsRepository,
    private readonly roles: RolesService,
    private readonly provider: IdentityProvider,
    private readonly transactions: Transactions,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.idleMs = config.signIn.sessions.idleMs;
    this.maxMs = config.signIn.sessions.maxMs;
  }

  onApplicationBootstrap(): void {
    this.sweeper.start();
    this.attemptSweeper.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sweeper.stop();
    await this.attemptSweeper.stop();
  }

  /** The person of a session cookie, with what their roles grant now; null: no live session, or no role left (it ends). */
  async findPrincipal(token: string): Promise<Principal | null> {
    const row = await this.sessions.findByDigest(digestOf(token));
    const now = new Date();
    if (!row || row.expiresAt <= now || row.idleExpiresAt <= now) return null;
    const holding = await this.roles.holding(row.groups);
    if (!holding) {
      await this.end(row, 'no_role');
      return null;
    }
    if (now.getTime() - row.lastUsedAt.getTime() >= TOUCH_EVERY_MS) {
      row.lastUsedAt = now;
      row.idleExpiresAt = new Date(Math.min(now.getTime() + this.idleMs, row.expiresAt.getTime()));
      await this.sessions.touch(row.id, row.lastUsedAt, row.idleExpiresAt);
    }
    return principalOf(row, holding, csrfTokenOf(token));
  }

  /** A sign-in's start: its checks kept for the callback; answers the state (for the browser's cookie) and where to send the browser. */
  async beginSignIn(): Promise<{ state: string; url: URL }> {
    const checks = { state: newToken(), nonce: newToken(), codeVerifier: newToken() };
    const url = await this.provider.authorizationUrl(checks);
    const attempt = Object.assign(new SignInAttemptEntity(), {
      stateDigest: digestOf(checks.state),
      id: randomUUID(),
      nonce: checks.nonce,
      codeVerifier: checks.codeVerifier,
      createdAt: new Date(),
    });
    await this.transactions.run((tx) => this.attempts.insert(attempt, tx));
    return { state: checks.state, url };
  }

  /**
   * The callback: its state must be the browser's (the sign-in cookie) and a sign-in's not yet used,
   * the provider's answer must pass every check, and a role must grant the person something. Each
   * refusal is audited (`session.refuse`) and starts nothing. Answers the new session's cookie value.
   */
  async completeSignIn(callback: URL, browserState: string | null): Promise<string> {
    const state = callback.searchParams.get('state');
    // Only this browser's own sign-in is taken: a state it did not start leaves the other's waiting.
    const ours = state !== null && state === browserState;
    const attempt = ours
      ? await this.transactions.run((tx) => this.attempts.take(digestOf(state), tx))
      : null;
    // Audited when it refuses a sign-in this browser started; anything else is a stranger's request,
    // which may not write the trail at will (it is logged).
    const refused = async (reason: string, person?: SignedInPerson): Promise<Error> => {
      if (attempt) return this.refuse(attempt.id, reason, person);
      this.logger.warn(`sign-in refused without a sign-in of this browser: ${reason}`);
      return new SignInFailedError(reason);
    };
    const providerError = callback.searchParams.get('error');
    // An OAuth error code (RFC 6749 4.1.2.1) is a word; anything else is not repeated back.
    if (providerError !== null) {
      throw await refused(
        `the provider answered ${/^[a-z_]{1,64}$/.test(providerError) ? providerError : 'an error'}`,
      );
    }
    if (!ours || state === null) throw await refused('the state does not match this browser’s sign-in');
    if (!attempt || Date.now() - attempt.createdAt.getTime() > SIGN_IN_MAX_AGE_MS) {
      throw await refused('unknown or expired state');
    }
    let person: SignedInPerson;
    try {
      person = await this.provider.signIn(callback, {
        state,
        nonce: attempt.nonce,
        codeVerifier: attempt.codeVerifier,
      });
    } catch (error) {
      if (error instanceof SignInRefused) throw await refused(error.message);
      throw error;
    }
    const holding = await this.roles.holding(person.groups);
    if (!holding) {
      await this.refuse(attempt.id, 'no role', person);
      throw noRole(person.name);
    }
    return this.start(person);
  }

  /** GET /api/v1/auth/session. */
  async current(principal: Principal): Promise<CurrentSessionResponse> {
    const row = principal.session ? await this.sessions.findLive(principal.session.id, new Date()) : null;
    if (!principal.session || !row) throw sessionNotFound();
    return {
      user: userOf(row),
      roles: [...principal.session.roles],
      permissions: [...principal.permissions],
      relayer_ids: principal.relayerIds ? [...principal.relayerIds] : null,
      csrf_token: principal.session.csrfToken,
      idle_expires_at: row.idleExpiresAt.toISOString(),
      expires_at: row.expiresAt.toISOString(),
    };
  }

  /** POST /api/v1/auth/logout: the caller's own session. */
  async logout(principal: Principal): Promise<void> {
    const row = principal.session ? await this.sessions.findLive(principal.session.id, new Date()) : null;
    if (!row) throw sessionNotFound();
    await this.end(row, 'logout');
  }

  /** Every live session; to a caller with relayer_ids, those of the people whose roles lie inside its scope. */
  async list(query: PageQueryDto, caller: Principal): Promise<Page<SessionResponse>> {
    const seen = await this.seenBy(caller, await this.sessions.live(new Date()));
    const items = seen.slice(query.offset, query.offset + query.per_page).map(toSessionResponse);
    return new Page(items, query, seen.length);
  }

  /** DELETE /api/v1/sessions/{id}: any live session the caller sees; any other is 404. */
  async remove(id: string, caller: Principal): Promise<string> {
    const row = await this.sessions.findLive(id, new Date());
    if (!row || (await this.seenBy(caller, [row])).length === 0) throw sessionNotFound();
    if (!(await this.end(row, 'ended'))) throw sessionNotFound();
    return 'Session ended successfully';
  }

  private async seenBy(caller: Principal, rows: readonly SessionEntity[]): Promise<SessionEntity[]> {
    const scope = RelayerScope.of(caller.relayerIds);
    if (scope === null) return [...rows];
    const holdingOf = await this.roles.holdings();
    const seen: SessionEntity[] = [];
    for (const row of rows) {
      const holding = holdingOf(row.groups);
      if (holding && RelayerScope.contains(scope, RelayerScope.of(unionOf(holding.grants).relayerIds))) {
        seen.push(row);
      }
    }
    return seen;
  }

  private async start(person: SignedInPerson): Promise<string> {
    const token = newToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.maxMs);
    const row = Object.assign(new SessionEntity(), {
      id: randomUUID(),
      tokenDigest: digestOf(token),
      userId: `${person.issuer}#${person.subject}`,
      userName: person.name.slice(0, 255),
      userEmail: person.email?.slice(0, 255) ?? null,
      groups: [...person.groups],
      createdAt: now,
      lastUsedAt: now,
      idleExpiresAt: new Date(Math.min(now.getTime() + this.idleMs, expiresAt.getTime())),
      expiresAt,
      endedAt: null,
    });
    await this.asActor(personActor(person), () =>
      this.transactions.run(async (tx) => {
        await this.sessions.insert(row, tx);
        await tx.recordChange({
          resource: 'session',
          id: row.id,
          operation: 'create',
          before: null,
          after: toSessionResponse(row),
        });
      }),
    );
    return token;
  }

  /** Ends a live session, audited as `session.delete` with why; false when it had ended already. */
  private async end(row: SessionEntity, reason: 'logout' | 'ended' | 'no_role'): Promise<boolean> {
    const at = new Date();
    return this.transactions.run(async (tx) => {
      if (!(await this.sessions.end(row.id, at, tx))) return false;
      await tx.recordChange({
        resource: 'session',
        id: row.id,
        operation: 'delete',
        before: toSessionResponse(row),
        after: { reason },
      });
      return true;
    });
  }

  /** Audits a refused callback (`session.refuse`, the person as actor when known) and answers its error. */
  private async refuse(id: string, reason: string, person?: SignedInPerson): Promise<Error> {
    const actor = person ? personActor(person) : { type: 'anonymous', id: null, name: 'unknown' };
    await this.asActor(actor, () =>
      this.transactions.run((tx) =>
        tx.recordChange({
          resource: 'session',
          id,
          operation: 'refuse',
          before: null,
          after: {
            reason,
            ...(person && { user: { id: actor.id, name: person.name, email: person.email } }),
          },
        }),
      ),
    );
    return new SignInFailedError(reason);
  }

  /** The audit actor of what follows in this request (the callback is public: it has no principal). */
  private async asActor<T>(actor: NonNullable<RequestContext['actor']>, work: () => Promise<T>): Promise<T> {
    const context = RequestContext.current();
    if (!context) return RequestContext.runAs(actor, work);
    const before = context.actor;
    context.actor = actor;
    try {
      return await work();
    } finally {
      context.actor = before;
    }
  }

  private async sweepAttempts(): Promise<void> {
    await this.attempts.deleteBefore(new Date(Date.now() - SIGN_IN_MAX_AGE_MS));
  }

  private async sweep(): Promise<void> {
    const now = Date.now();
    const sessions = await this.sessions.deleteDoneBefore(new Date(now - KEEP_DONE_MS));
    if (sessions > 0) this.logger.log(`removed ${sessions} sessions ended or expired over a day ago`);
  }
}

/** Everything their roles grant, as a whole (what the person is shown); each route narrows it (forRoute). */
function principalOf(row: SessionEntity, holding: Holding, csrfToken: string): Principal {
  const { permissions, relayerIds } = unionOf(holding.grants);
  return {
    type: 'user',
    id: row.userId,
    name: row.userName,
    permissions,
    ...(relayerIds && { relayerIds }),
    // What a key it makes may not outlive (docs/reference/keys-and-audit.md#110-a-keys-children).
    secretExpiresAt: row.expiresAt,
    session: { id: row.id, csrfToken, roles: [...holding.roles] },
    grants: holding.grants,
  };
}
