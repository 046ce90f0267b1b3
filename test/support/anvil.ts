import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort, PROJECT_ROOT } from './service-process';
import { waitFor } from './wait';

/**
 * The anvil binary of Foundry's npm package for Linux x64 (the binary ships in the package; no
 * download at run time). The project depends on the platform package directly: the registry it
 * installs from serves no other platform's, so the @foundry-rs/anvil wrapper, which lists them
 * all as optional dependencies, leaves a lock file that `npm ci` refuses.
 */
const ANVIL = path.join(PROJECT_ROOT, 'node_modules', '@foundry-rs', 'anvil-linux-amd64', 'bin', 'anvil');

/** A real EVM node (anvil) on a loopback port, started and stopped by the test. */
export class Anvil {
  static readonly CHAIN_ID = 31337;
  private child: ChildProcess | null = null;
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    if (!fs.existsSync(ANVIL)) {
      throw new Error(
        `anvil is not installed at ${ANVIL}: the project installs it (@foundry-rs/anvil-linux-amd64) on Linux x64 only`,
      );
    }
    this.port ||= await freePort();
    const child = spawn(
      ANVIL,
      ['--port', String(this.port), '--host', '127.0.0.1', '--chain-id', String(Anvil.CHAIN_ID), '--silent'],
      {
        stdio: 'ignore',
      },
    );
    this.child = child;
    await waitFor(
      `anvil answering on ${this.url}`,
      async () => (await this.rpc('eth_chainId', [])) === '0x7a69',
      {
        timeoutMs: 20_000,
        intervalMs: 100,
      },
    );
    return this;
  }

  /** Stops the node (the port stays reserved for a restart). */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.child = null;
  }

  async rpc(method: string, params: unknown[]): Promise<unknown> {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      signal: AbortSignal.timeout(5000),
    });
    const body = (await response.json()) as { result?: unknown; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  }

  setBalance(address: string, wei: bigint): Promise<unknown> {
    return this.rpc('anvil_setBalance', [address, `0x${wei.toString(16)}`]);
  }

  setNonce(address: string, nonce: number): Promise<unknown> {
    return this.rpc('anvil_setNonce', [address, `0x${nonce.toString(16)}`]);
  }
}
