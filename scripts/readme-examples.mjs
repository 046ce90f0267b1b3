// Runs the examples a new user pastes, in order: every ```sh block under "## First five minutes" in
// README.md, then every ```sh block of docs/api.md, go to one bash session against the built service
// (dist/), started here on a free port with a throwaway SQLite database, the shipped catalogue and a
// known API key.
//
// What is rewritten: `localhost:8080` becomes the service's port, `localhost:9000` and `listen(9000)`
// (the README's webhook receiver) a free port of their own, and `export KEY=...` sets the test's key
// (the docs ask the reader to paste the key `npm start` printed there). The blocks run in one bash
// session, as if pasted into one terminal; background jobs still running at the end are stopped.
// What is checked: no command fails; every curl call answers 2xx, or the status its comment
// announces (`# 409 ...` on a line of that command, or on a comment line after it, marks an example
// meant to fail); a JSON answer to a 2xx that has the envelope's `success` says true; every block
// that calls curl makes at least one call; the API key never reaches the log file. A failure names the file and line.
// The last line is "N passed, N failed" (one per curl call, plus one per problem found otherwise).
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { clearTimeout } from 'node:timers';

const root = path.resolve(import.meta.dirname, '..');
/** Where the examples are, in the order they run: the file, and the `## ` section (null: every block). */
const SOURCES = [
  { file: 'README.md', section: '## First five minutes' },
  { file: 'docs/api.md', section: null },
];
const mainJs = path.join(root, 'dist', 'src', 'main.js');
// A loaded 2-core machine (jest workers and Chromium beside it) has taken over 30 s to start the service.
const START_TIMEOUT_MS = 120_000;
const SESSION_TIMEOUT_MS = 120_000;

/** The ```sh blocks of one file (of one `## ` section of it, when given), with their line numbers. */
function shBlocks(markdown, file, section) {
  const lines = markdown.split('\n');
  const blocks = [];
  let inSection = section === null;
  let block = null;
  lines.forEach((line, i) => {
    if (block) {
      if (line.startsWith('```')) {
        blocks.push(block);
        block = null;
      } else block.lines.push(line);
      return;
    }
    if (section !== null && /^## /.test(line)) inSection = line.trim() === section;
    else if (inSection && line.trim() === '```sh') block = { file, startLine: i + 2, lines: [] };
  });
  return blocks;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function healthStatus(port) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/v1/health', timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

async function waitHealthy(port, child, output) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited before it was healthy:\n${output()}`);
    if ((await healthStatus(port)) === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the service was not healthy within ${START_TIMEOUT_MS} ms:\n${output()}`);
}

// curl, as the examples call it, with the status and the calling line recorded for the checks.
const CURL_WRAPPER = `
curl() {
  local line=\${BASH_LINENO[0]} out code=0
  out=$(command curl --max-time 20 -w '\\n%{http_code}' "$@") || code=$?
  local status=\${out##*$'\\n'}
  local body=\${out%$'\\n'*}
  printf '%s\\n' "$body"
  printf '%s\\t%s\\t%s\\n' "$line" "$code:$status" "$(printf '%s' "$body" | head -c 1000000 | tr '\\n\\t' '  ')" >> "$README_CALLS"
  return 0
}
`;

/**
 * All blocks in one bash session, as a reader pastes them into one terminal: variables carry
 * over, and a failing command does not stop the next one but is recorded (ERR trap) with its line.
 * Lines are counted in the script; `where` turns a script line into the file and line it came from.
 */
function runSession(blocks, { port, receiverPort, apiKey, workdir }) {
  const header = [CURL_WRAPPER.trim(), `trap 'printf "%s\\t%s\\n" "$LINENO" "$?" >> "$README_ERRORS"' ERR`];
  const scriptLines = header.join('\n').split('\n');
  for (const block of blocks) {
    block.scriptStart = scriptLines.length + 1;
    block.lines.forEach((line) => {
      const rewritten = /^\s*export KEY=/.test(line)
        ? 'export KEY="$README_TEST_KEY"'
        : line
            .replaceAll('localhost:8080', `localhost:${port}`)
            .replaceAll('localhost:9000', `localhost:${receiverPort}`)
            .replaceAll('listen(9000)', `listen(${receiverPort})`);
      scriptLines.push(rewritten);
    });
  }
  // What a reader would stop by closing the terminal: a background job the examples left running.
  scriptLines.push(
    'trap - ERR',
    'for job in $(jobs -p); do kill "$job" 2>/dev/null; done',
    'wait 2>/dev/null',
    'true',
  );
  const file = path.join(workdir, 'readme-examples.sh');
  fs.writeFileSync(file, scriptLines.join('\n') + '\n');
  const calls = path.join(workdir, 'calls.tsv');
  const errors = path.join(workdir, 'errors.tsv');
  fs.writeFileSync(calls, '');
  fs.writeFileSync(errors, '');
  const bash = spawnSync('bash', [file], {
    cwd: workdir,
    encoding: 'utf8',
    timeout: SESSION_TIMEOUT_MS,
    env: {
      PATH: process.env.PATH,
      HOME: workdir,
      README_CALLS: calls,
      README_ERRORS: errors,
      README_TEST_KEY: apiKey,
    },
  });
  const rows = (f) =>
    fs
      .readFileSync(f, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((row) => row.split('\t'));
  return {
    bash,
    calls: rows(calls).map(([line, result, body]) => {
      const [exit, status] = result.split(':').map(Number);
      return { line: Number(line), exit, status, body };
    }),
    errors: rows(errors).map(([line, code]) => ({ line: Number(line), code: Number(code) })),
  };
}

/** "docs/api.md:42" for a script line, or "the script's line N" outside every block. */
function where(blocks, scriptLine) {
  const block = blocks.find(
    (b) => scriptLine >= b.scriptStart && scriptLine < b.scriptStart + b.lines.length,
  );
  return block
    ? `${block.file}:${block.startLine + (scriptLine - block.scriptStart)}`
    : `the script's line ${scriptLine}`;
}

/** The statuses announced by comments (`# 409 ...`), by script line. */
function expectedStatuses(blocks) {
  const marks = [];
  for (const block of blocks) {
    block.lines.forEach((line, j) => {
      const m = /(?:^|\s)#\s*([1-5]\d\d)\b/.exec(line);
      if (m) marks.push({ line: block.scriptStart + j, status: Number(m[1]) });
    });
  }
  return marks;
}

/** What is wrong with one curl call, or null. A mark belongs to the call whose command it is on. */
function judge(call, nextCallLine, marks) {
  const expected = marks.find((m) => m.line >= call.line && m.line < nextCallLine)?.status;
  if (call.exit !== 0) return `curl failed (exit ${call.exit})`;
  if (expected !== undefined) {
    return call.status === expected ? null : `answered ${call.status}, expected ${expected}: ${call.body}`;
  }
  if (call.status < 200 || call.status > 299) return `answered ${call.status}: ${call.body}`;
  if (call.body.trimStart().startsWith('{')) {
    try {
      // The envelope's flag; /api/v1/ready answers Terminus's own body, which has none.
      const answer = JSON.parse(call.body);
      if ('success' in answer && answer.success !== true) return `answered "success": false: ${call.body}`;
    } catch {
      return `answered JSON that does not parse: ${call.body}`;
    }
  }
  return null;
}

async function main() {
  if (!fs.existsSync(mainJs)) {
    console.error(`${mainJs} is missing: run npm run build first`);
    process.exit(1);
  }
  if (spawnSync('curl', ['--version']).status !== 0) {
    console.error('curl is needed to run the examples');
    process.exit(1);
  }
  const blocks = [];
  for (const { file, section } of SOURCES) {
    const found = shBlocks(fs.readFileSync(path.join(root, file), 'utf8'), file, section);
    if (found.length === 0) {
      console.error(`no \`\`\`sh blocks found in ${file}${section ? ` under "${section}"` : ''}`);
      process.exit(1);
    }
    blocks.push(...found);
  }
  const workdir = fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-readme-'));
  const port = await freePort();
  const receiverPort = await freePort();
  const apiKey = crypto.randomBytes(32).toString('hex');
  const logFile = path.join(workdir, 'service.log');
  const child = spawn(process.execPath, [mainJs], {
    cwd: workdir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      HOME: workdir,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      API_KEY: apiKey,
      DATABASE_URL: `sqlite:${path.join(workdir, 'relayer.sqlite')}`,
      DATA_DIR: path.join(workdir, 'data'),
      CONFIG_FILE: path.join(root, 'config', 'config.json'),
      LOG_FILE: logFile,
    },
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((resolve) => child.on('exit', resolve));

  let passed = 0;
  let failed = 0;
  try {
    await waitHealthy(port, child, () => output);
    const { bash, calls, errors } = runSession(blocks, { port, receiverPort, apiKey, workdir });
    const marks = expectedStatuses(blocks);
    const starts = [...new Set(calls.map((c) => c.line))].sort((x, y) => x - y);
    for (const call of calls) {
      const next = starts.find((line) => line > call.line) ?? Infinity;
      const problem = judge(call, next, marks);
      if (problem) {
        failed += 1;
        console.log(`FAIL ${where(blocks, call.line)}: ${problem}`);
      } else passed += 1;
    }
    for (const error of errors) {
      failed += 1;
      console.log(`FAIL ${where(blocks, error.line)}: a command exited ${error.code}`);
    }
    if (bash.status !== 0 || bash.error) {
      failed += 1;
      console.log(`FAIL bash: ${bash.error ? bash.error.message : `exited ${bash.status ?? bash.signal}`}`);
    }
    if (bash.stderr.trim() !== '') console.log(`bash wrote to stderr:\n${bash.stderr.trim()}`);
    // A block that calls curl must have made a call (one that only sets up, such as the key, need not).
    for (const block of blocks.filter((b) =>
      b.lines.some((line) => /\bcurl\b/.test(line.replace(/#.*/, ''))),
    )) {
      const end = block.scriptStart + block.lines.length;
      if (!calls.some((c) => c.line >= block.scriptStart && c.line < end)) {
        failed += 1;
        console.log(`FAIL ${block.file}:${block.startLine}: no curl call of this block ran`);
      }
    }
    const marked = marks.filter(
      (m) => !calls.some((c) => c.line <= m.line && (starts.find((l) => l > c.line) ?? Infinity) > m.line),
    );
    for (const mark of marked) {
      failed += 1;
      console.log(`FAIL ${where(blocks, mark.line)}: announces ${mark.status}, but no curl call ran there`);
    }
  } catch (error) {
    failed += 1;
    console.log(`FAIL ${error.message}`);
  } finally {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
  if (log.includes(apiKey)) {
    failed += 1;
    console.log('FAIL the API key appears in the log file');
  }
  if (failed === 0) fs.rmSync(workdir, { recursive: true, force: true });
  else console.log(`(scripts and service log kept in ${workdir})`);
  console.log(`Examples: ${blocks.length} blocks (${SOURCES.map((s) => s.file).join(', ')})`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

await main();
