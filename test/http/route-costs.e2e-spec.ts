import fs from 'node:fs';
import path from 'node:path';
import { useTestApp } from '../support/test-app';

/**
 * docs/security.md#every-routes-worst-case holds one row per route of the OpenAPI document: who may
 * call it (its x-required-permission), what it can reach beyond its own resource, the most one call
 * costs, and the test that proves that bound. This file keeps the table true: a route added without
 * a row, a row for a route that is gone, a permission that changed, or a cited test that does not
 * exist (file, or title in that file) fails here.
 */
const root = path.resolve(__dirname, '..', '..');
const SECTION = "## Every route's worst case";

interface Row {
  readonly route: string;
  readonly who: string;
  readonly proof: string;
}

function tableRows(): Row[] {
  const text = fs.readFileSync(path.join(root, 'docs', 'security.md'), 'utf8');
  const start = text.indexOf(SECTION);
  if (start < 0) throw new Error(`docs/security.md has no "${SECTION}" section`);
  const after = text.slice(start + SECTION.length);
  const end = after.search(/\n## /);
  const lines = (end < 0 ? after : after.slice(0, end)).split('\n').filter((line) => line.startsWith('| `'));
  return lines.map((line) => {
    const cells = line
      .slice(1, -1)
      .split(' | ')
      .map((cell) => cell.trim());
    return { route: cells[0].replace(/`/g, ''), who: cells[1], proof: cells[cells.length - 1] };
  });
}

/** `path/to/file.e2e-spec.ts` › "title", one or more separated by `;`. */
function citedTests(proof: string): { file: string; title: string }[] {
  return [...proof.matchAll(/`([^`]+\.(?:e2e-spec|spec|browser-spec)\.ts)` › "([^"]+)"/g)].map((m) => ({
    file: m[1],
    title: m[2],
  }));
}

describe("docs/security.md: every route's worst case", () => {
  const handle = useTestApp();

  it('has one row per route of the OpenAPI document, with its permission and a test that exists', async () => {
    const res = await handle.current.get('/api/docs-json', false).expect(200);
    const doc = res.body as {
      paths: Record<string, Record<string, { 'x-required-permission'?: string | string[] }>>;
    };
    const permissions = new Map<string, string>();
    for (const [route, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const required = op['x-required-permission'];
        permissions.set(
          `${method.toUpperCase()} ${route}`,
          required === undefined
            ? 'public'
            : Array.isArray(required)
              ? required.join(' + ')
              : String(required),
        );
      }
    }
    const rows = tableRows();
    expect(rows.map((row) => row.route).sort()).toEqual([...permissions.keys()].sort());

    const problems: string[] = [];
    for (const row of rows) {
      const permission = permissions.get(row.route) ?? '';
      const named = permission === 'none' ? 'any key' : permission;
      if (!row.who.includes(named)) problems.push(`${row.route}: "Who may call" does not name ${named}`);
      const tests = citedTests(row.proof);
      if (tests.length === 0) problems.push(`${row.route}: no test cited`);
      for (const { file, title } of tests) {
        const full = path.join(root, file);
        if (!fs.existsSync(full)) problems.push(`${row.route}: ${file} does not exist`);
        else if (!fs.readFileSync(full, 'utf8').includes(title)) {
          problems.push(`${row.route}: ${file} has no test "${title}"`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
