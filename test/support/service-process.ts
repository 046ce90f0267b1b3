import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { waitFor, withDeadline } from './wait';

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
export const MAIN_JS = path.join(PROJECT_ROOT, 'dist', 'src', 'main.js');

/**
 * The Node flags of `npm start` (package.json; the Docker image's CMD has the same), heap sizing
 * included, so that the spawned service runs as it ships. `--env-file-if-exists` is left out: the
 * tests give the service its whole environment.
 */
export const START_NODE_FLAGS = ((): string[] => {
  const pkg = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  const m = /(?:^|\s)node\s+((?:--?\S+\s+)*)dist\/src\/main\.js/.exec(pkg.scripts?.start ?? '');
  return (m?.[1] ?? '').split(/\s+/).filter((f) => f.startsWith('--') && !f.startsWith('--env-file'));
})();

/** How long one request of the test to the service may take before it counts as hung. */
const REQUEST_TIMEOUT_MS = 10_000;

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

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

// Processes a failed test left running are killed when its file ends, so Jest never waits on them.
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

/** The compiled service started in the working directory with env, once /api/v1/ready answers 200. */
export async function startReadyService(env: Record<string, string | undefined>): Promise<ServiceProcess> {
  const service = new ServiceProcess(process.cwd(), env);
  await service.start();
  await service.waitReady();
  return service;
}

/**
 * The compiled service run as its own process. The e2e project's global setup
 * (test/support/global-setup.ts) rebuilds dist/ before the run when it is older than the sources.
 */
export class ServiceProcess {
  private child: ChildProcess | null = null;
  private output = '';
  private exit: Promise<ExitStatus> | null = null;
  private exitStatus: ExitStatus | null = null;
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
    const child = spawn(process.execPath, [...START_NODE_FLAGS, MAIN_JS], {
      cwd: this.cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.output = '';
    this.exitStatus = null;
    running.add(child);
    child.stdout?.on('data', (d: Buffer) => (this.output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
    // 'close' rather than 'exit': by then all of the output has been read.
    this.exit = new Promise((resolve) =>
      child.on('close', (code, signal) => {
        running.delete(child);
        this.exitStatus = { code, signal };
        resolve(this.exitStatus);
      }),
    );
  }

  /**
   * Resolves when /api/v1/health answers 200; fails if the process exits first or the deadline passes.
   * The deadlines are a loaded machine's (a start took over 30 s in a suite at nice 10 beside other
   * work, printing nothing); a quiet one starts in 2-4 s.
   */
  waitHealthy(timeoutMs = 60_000): Promise<void> {
    return this.waitFor200('/api/v1/health', timeoutMs);
  }

  /** Resolves when /api/v1/ready answers 200; fails if the process exits first or the deadline passes. */
  waitReady(timeoutMs = 60_000): Promise<void> {
    return this.waitFor200('/api/v1/ready', timeoutMs);
  }

  /**
   * Waits for the process to exit by itself (a refused start); kills it if the deadline passes.
   * 40 s: a start on a loaded 2-core CI machine was seen to take over 20 s to fail.
   */
  async exited(timeoutMs = 40_000): Promise<ExitStatus> {
    if (!this.exit) throw new Error('the service has not been started');
    try {
      return await withDeadline('the service to exit by itself', this.exit, timeoutMs, () => this.tail());
    } catch (error) {
      this.child?.kill('SIGKILL');
      throw error;
    }
  }

  /** The process id (for signals sent by the test). */
  get pid(): number {
    return this.child?.pid ?? 0;
  }

  /** Sends the signal and waits for the exit; SIGKILLs and fails if it does not come within timeoutMs. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 15_000): Promise<ExitStatus> {
    if (!this.exit) return { code: null, signal: null };
    if (this.exitStatus) return this.exitStatus;
    this.child?.kill(signal);
    try {
      return await withDeadline(`the service to exit after ${signal}`, this.exit, timeoutMs, () =>
        this.tail(),
      );
    } catch (error) {
      this.child?.kill('SIGKILL');
      throw error;
    }
  }

  /** A request to the service; fails naming the request if no answer comes within 10 s. */
  async fetch(p: string, init: RequestInit = {}): Promise<Response> {
    try {
      return await fetch(`http://127.0.0.1:${this.port}${p}`, {
        ...init,
        signal: init.signal ?? AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      if (error instanceof Error && error.name === 'TimeoutError') {
        throw new Error(`${init.method ?? 'GET'} ${p}: no answer within ${REQUEST_TIMEOUT_MS} ms`, {
          cause: error,
        });
      }
      throw error;
    }
  }

  /** A request with the bearer token of the API_KEY it was started with, the body sent as JSON. */
  call(method: string, p: string, body?: object): Promise<Response> {
    return this.fetch(p, {
      method,
      headers: { Authorization: `Bearer ${this.env.API_KEY}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  private async waitFor200(p: string, timeoutMs: number): Promise<void> {
    const outcome = await waitFor(
      `GET ${p} to answer 200`,
      async () => {
        if (this.exitStatus) return 'exited';
        try {
          const res = await this.fetch(p, { signal: AbortSignal.timeout(2000) });
          return res.status === 200 && 'up';
        } catch {
          return false; // not listening yet
        }
      },
      { timeoutMs, intervalMs: 100, detail: () => this.tail() },
    );
    if (outcome === 'exited') {
      const { code, signal } = this.exitStatus as ExitStatus;
      throw new Error(
        `the service exited (code ${code}, signal ${signal}) before ${p} answered 200:\n${this.output}`,
      );
    }
  }

  private tail(): string {
    return `service output (last 4000 characters):\n${this.output.slice(-4000)}`;
  }
}
