import type { HealthCheck, HealthCheckTarget, CheckResult } from 'relayer-management-service';

/**
 * Replaces the service's EVM health check (`EVM_HEALTH_CHECK`) for a fleet whose nodes do not serve
 * `eth_getTransactionCount` (a rollup's sequencer, say): it checks the balance only. It tries the
 * relayer's endpoints in order through the service's JSON-RPC client (its timeout, answer cap and URL
 * policy) and never rejects: every failure is a verdict.
 */
export class BalanceOnlyEvmCheck implements HealthCheck {
  async check(target: HealthCheckTarget): Promise<CheckResult> {
    const failures: string[] = [];
    for (const url of target.endpoints) {
      try {
        const answer = await target.call(url, 'eth_getBalance', [target.address, 'latest']);
        if (typeof answer !== 'string' || !/^0x[0-9a-f]+$/i.test(answer)) {
          failures.push(`${new URL(url).host}: eth_getBalance answered no quantity`);
          continue;
        }
        const balance = BigInt(answer);
        if (target.minBalance !== null && balance < target.minBalance) {
          return {
            ok: false,
            reason: 'BalanceCheckFailed',
            details: `balance ${balance} is below min_balance ${target.minBalance} (balance-only probe)`,
            balance,
          };
        }
        return { ok: true, balance };
      } catch (error) {
        failures.push(target.describeFailure(url, error));
      }
    }
    return { ok: false, reason: 'RpcValidationFailed', details: failures.join('; ') || 'no endpoint' };
  }
}
