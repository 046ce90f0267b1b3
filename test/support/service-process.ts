import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
export const MAIN_JS = path.join(PROJECT_ROOT, 'dist', 'src', 'main.js');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The compiled service run as its own process (built by `npm test` before the suites run). */
export class ServiceProcess {
  private child: ChildProcess | null = null;
  private output = '';
  private exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | null = null;
  port = 0;

  constructor(
    private readonly cwd: string,
    private readonly env: Record<string, string | undefined>,
  ) {}

  get log(): string {
    return this.output;
  }

  async start(): Promise<void> {
    if (!fs.existsSync(MAIN_JS)) throw new Error(`${MAIN_JS} is missing: run npm run build first`);
    this.port = await freePort();
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(this.port),
      HOST: '127.0.0.1',
    };
    for (const [k, v] of Object.entries(this.env)) if (v !== undefined) env[k] = v;
    const child = spawn(process.execPath, [MAIN_JS], {
      cwd: this.cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.output = '';
    child.stdout?.on('data', (d: Buffer) => (this.output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
    this.exit = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  }

  /** Resolves when /api/v1/health answers 200; rejects if the process exits first. */
  async waitHealthy(timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let exited = false;
    void this.exit?.then(() => (exited = true));
    while (Date.now() < deadline) {
      if (exited) throw new Error(`the service exited before it was healthy:\n${this.output}`);
      try {
        const res = await fetch(`http://127.0.0.1:${this.port}/api/v1/health`);
        if (res.status === 200) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the service was not healthy within ${timeoutMs} ms:\n${this.output}`);
  }

  /** Waits for the process to exit by itself (a refused start). */
  async exited(timeoutMs = 20_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const timer = new Promise<never>((_, reject) =>
      setTimeout(
        () => reject(new Error(`still running after ${timeoutMs} ms:\n${this.output}`)),
        timeoutMs,
      ).unref(),
    );
    return Promise.race([
      this.exit as Promise<{ code: number | null; signal: NodeJS.Signals | null }>,
      timer,
    ]);
  }

  /** The process id (for signals sent by the test). */
  get pid(): number {
    return this.child?.pid ?? 0;
  }

  /** Resolves when /api/v1/ready answers 200; returns how long it took. */
  async waitReady(timeoutMs = 30_000): Promise<number> {
    const started = Date.now();
    while (Date.now() - started < timeoutMs) {
      try {
        if ((await this.fetch('/api/v1/ready')).status === 200) return Date.now() - started;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`not ready within ${timeoutMs} ms:\n${this.output}`);
  }

  async stop(
    signal: NodeJS.Signals = 'SIGTERM',
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) {
      return this.exit ?? { code: null, signal: null };
    }
    this.child.kill(signal);
    return this.exit as Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  }

  fetch(p: string, init: RequestInit = {}): Promise<Response> {
    return fetch(`http://127.0.0.1:${this.port}${p}`, init);
  }
}
