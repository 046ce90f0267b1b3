import { isIP, type LookupFunction } from 'node:net';
import type { Agent } from 'undici';
import { lazyRequire } from '../modules/lazy-require';
import type { DnsResolver } from './dns-resolver';
import { checkAddress, type UrlPolicyOptions } from './url-policy';

export class RefusedAddressError extends Error {
  readonly code = 'ERR_ADDRESS_REFUSED_BY_URL_POLICY';
}

/** undici (109 modules), loaded on the first outbound request rather than at start. */
export const loadUndici = lazyRequire<typeof import('undici')>('undici');

/** Applies a URL policy to every address a host resolves to, so that DNS rebinding cannot get past it. */
export class PolicyAgent {
  private agent: Promise<Agent> | null = null;

  constructor(
    private readonly policy: UrlPolicyOptions,
    private readonly resolver: DnsResolver,
    private readonly options: { connections?: number; connectTimeoutMs?: number } = {},
  ) {}

  get(): Promise<Agent> {
    return (this.agent ??= loadUndici().then(({ Agent: UndiciAgent }) => this.create(UndiciAgent)));
  }

  async destroy(): Promise<void> {
    if (this.agent) await (await this.agent).destroy();
  }

  private create(UndiciAgent: typeof Agent): Agent {
    const { policy, resolver } = this;
    const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
      resolver.lookup(hostname, (error, addresses) => {
        if (error) return callback(error, []);
        const allowed = addresses.filter((a) => checkAddress(a.address, policy) === null);
        if (allowed.length === 0) {
          const reason = addresses.length > 0 ? checkAddress(addresses[0].address, policy) : 'no address';
          return callback(new RefusedAddressError(`${hostname} resolves to an address that ${reason}`), []);
        }
        if (lookupOptions.all) return callback(null, allowed);
        return callback(null, allowed[0].address, allowed[0].family ?? isIP(allowed[0].address));
      });
    };
    return new UndiciAgent({
      // Undici's own bound on connecting is 10 s, whatever the caller's signal says.
      connect: {
        lookup,
        ...(this.options.connectTimeoutMs === undefined ? {} : { timeout: this.options.connectTimeoutMs }),
      },
      connections: this.options.connections ?? 16,
      keepAliveTimeout: 10_000,
    });
  }
}

export function policyRefusal(error: unknown): RefusedAddressError | null {
  const cause = (error as { cause?: unknown } | null)?.cause ?? error;
  if (cause instanceof RefusedAddressError) return cause;
  return error instanceof RefusedAddressError ? error : null;
}
