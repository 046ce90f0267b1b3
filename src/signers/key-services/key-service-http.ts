import type { Agent } from 'undici';
import { DnsResolver } from '../../common/security/dns-resolver';
import { loadUndici, PolicyAgent } from '../../common/security/policy-agent';
import { checkUrl } from '../../common/security/url-policy';
import type { UrlPolicyConfig } from '../../config/app-config';

/**
 * The one outbound client of the key services (Vault, and under the Azure, AWS and Google SDKs):
 * the key-service URL policy at connect time, the answer capped at 64 KiB, one deadline per signer.
 */
export class KeyServiceHttp {
  private readonly agents: { blocking: PolicyAgent; private: PolicyAgent };
  private identityAgent: Promise<Agent> | null = null;

  constructor(
    readonly policy: UrlPolicyConfig,
    resolver: DnsResolver,
  ) {
    this.agents = {
      blocking: new PolicyAgent({ ...policy, allowedHosts: [] }, resolver, { connections: 2 }),
      private: new PolicyAgent({ allowedHosts: [], blockPrivateIps: false }, resolver, { connections: 2 }),
    };
  }

  /** A host on KEY_SERVICE_PRIVATE_HOSTS may be private. */
  onPrivateList(url: string): boolean {
    const { allowedHosts } = this.policy;
    return allowedHosts.length > 0 && checkUrl(url, { allowedHosts, blockPrivateIps: false }) === null;
  }

  /** The policy's refusal of a URL before any connection, or null. */
  refusal(url: string): string | null {
    return this.onPrivateList(url) ? null : checkUrl(url, { ...this.policy, allowedHosts: [] });
  }

  /**
   * `identity`: the operator's own identity endpoints (the instance metadata service, the managed
   * identity endpoint), which no API caller names: capped, without the URL policy (it refuses them).
   */
  dispatcher(url: URL, identity: boolean): Promise<Agent> {
    if (identity) {
      return (this.identityAgent ??= loadUndici().then(
        ({ Agent: UndiciAgent }) => new UndiciAgent({ connections: 2, keepAliveTimeout: 10_000 }),
      ));
    }
    return (this.onPrivateList(url.href) ? this.agents.private : this.agents.blocking).get();
  }
}
