import fs from 'node:fs';
import path from 'node:path';
import { PERMISSIONS } from '../../src/common/auth/principal';
import { createKey, relayerBody, signerBody } from '../factories';
import { as } from '../support/as-key';
import { errorBody } from '../support/envelope';
import { appRoutes, documentedPermissions, openApiPaths, routeName, type Route } from '../support/routes';
import { useTestApp } from '../support/test-app';

/**
 * Every route of the application, walked from its router (test/support/routes.ts): each declares its
 * permission with @RequirePermission and the OpenAPI document says the same; without a key it answers
 * 401, with a key lacking the permission 403 and nothing changes, with a key holding exactly it (or the
 * administrator's) neither. docs/security.md#every-routes-worst-case holds one row per route: who may
 * call it, what it can reach beyond its own resource, the most one call costs, and the test that proves
 * that bound; a route without a row, a row for a route that is gone, a permission that changed, or a
 * cited test that does not exist (file, or title in that file) fails here.
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

describe('every route of the application', () => {
  const handle = useTestApp();
  const app = () => handle.current;
  const protectedRoutes = () => appRoutes(app()).filter((route) => !route.public);

  it('route inventory: only health and ready are public; every other route is protected', () => {
    const routes = appRoutes(app());
    const publicRoutes = routes
      .filter((route) => route.public)
      .map((route) => `${route.method} ${route.path.replace('/api/v1', '')}`);
    // GET /api/v1/health is answered by Express ahead of Nest (health/liveness.ts); no Nest route but ready is public.
    // The sign-in's (docs/access.md#signing-in-with-your-identity-provider): who has no session yet.
    expect(publicRoutes.sort()).toEqual([
      'GET /auth/callback',
      'GET /auth/login',
      'GET /auth/methods',
      'GET /ready',
    ]);
    expect(routes.length).toBeGreaterThan(publicRoutes.length);
  });

  it('each route declares its permission with @RequirePermission, and its OpenAPI entry says the same', async () => {
    const documented = documentedPermissions(await openApiPaths(app()));
    const declared = appRoutes(app()).map((route) => [
      routeName(route),
      route.public
        ? 'public'
        : route.required === undefined
          ? 'the administrator alone (no @RequirePermission)'
          : route.required.length === 0
            ? 'none'
            : route.required.join(' + '),
    ]);
    const health = ['GET /api/v1/health', documented.get('GET /api/v1/health')];
    expect(Object.fromEntries([...declared, health])).toEqual(Object.fromEntries(documented));
  });

  it('every route answers 401 without a key, 403 with a key lacking its permission (nothing changed), and passes with exactly it', async () => {
    const routes = protectedRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(30);
    // Fixtures the routes' path parameters name.
    await app()
      .post('/api/v1/notifications', { id: 'perm-hook', url: 'https://hooks.example.org/x' })
      .expect(201);
    await app()
      .post(
        '/api/v1/relayers',
        relayerBody('evm', { id: 'perm-relayer', name: 'audited', signer_id: 'pool-0200' }),
      )
      .expect(201);
    await app()
      .post('/api/v1/signers', signerBody({ id: 'perm-signer' }))
      .expect(201);
    // A key the api_keys:manage key may revoke (docs/reference/hardening.md: it holds what the target holds).
    const target = await createKey(app(), { name: 'target', permissions: ['api_keys:manage'] });
    const params: Record<string, string> = {
      relayer_id: 'perm-relayer',
      notification_id: 'perm-hook',
      delivery_id: 'no-such-delivery',
      signer_id: 'perm-signer',
      network_id: 'evm:sepolia',
      api_key_id: target.id,
      metric_name: 'http_requests_total',
    };
    // For each set of permissions a route needs: a key with exactly them, and for each of them a
    // key with every other permission.
    const keys = new Map<string, { exact: string; others: string[] }>();
    for (const { required = [] } of routes) {
      const name = required.join(' ');
      if (keys.has(name)) continue;
      const others: string[] = [];
      for (const missing of required) {
        others.push((await createKey(app(), { permissions: PERMISSIONS.filter((p) => p !== missing) })).key);
      }
      // A route any key may call: a key holding one permission unrelated to it opens it.
      const exact = required.length > 0 ? required : ['metrics:read'];
      keys.set(name, { exact: (await createKey(app(), { permissions: exact })).key, others });
    }
    const auditCount = async () =>
      ((await app().get('/api/v1/audit?per_page=1').expect(200)).body.pagination as { total_items: number })
        .total_items;
    // Reads and writes that remove a fixture go last, so that the others still find theirs.
    const order = (r: Route) => (r.method === 'DELETE' ? 2 : r.method === 'GET' ? 0 : 1);
    const outcomes: string[] = [];
    for (const route of [...routes].sort((a, b) => order(a) - order(b))) {
      const url = route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
        encodeURIComponent(params[name] ?? 'x'),
      );
      const send = (token: string | null) => {
        const client = as(app(), token);
        switch (route.method) {
          case 'GET':
            return client.get(url);
          case 'POST':
            return client.post(url, {});
          case 'PATCH':
            return client.patch(url, {});
          case 'PUT':
            return client.put(url, {});
          default:
            return client.delete(url);
        }
      };
      const { exact, others } = keys.get((route.required ?? []).join(' '))!;
      const before = await auditCount();
      const anonymous = await send(null);
      expect({ route: routeName(route), status: anonymous.status, body: anonymous.body as unknown }).toEqual({
        route: routeName(route),
        status: 401,
        body: errorBody('Unauthorized'),
      });
      for (const other of others) {
        const refused = await send(other);
        expect({ route: routeName(route), status: refused.status, body: refused.body as unknown }).toEqual({
          route: routeName(route),
          status: 403,
          body: { success: false, data: null, message: 'Forbidden', error: 'Forbidden' },
        });
      }
      expect(await auditCount()).toBe(before);
      for (const token of [exact, app().apiKey]) {
        const allowed = await send(token);
        outcomes.push(`${routeName(route)} ${token === exact ? 'exact' : 'admin'} → ${allowed.status}`);
        expect({ route: routeName(route), refused: [401, 403].includes(allowed.status) }).toEqual({
          route: routeName(route),
          refused: false,
        });
      }
    }
    expect(outcomes).toHaveLength(routes.length * 2);
  });

  describe("docs/security.md: every route's worst case", () => {
    it('has one row per route of the OpenAPI document, with its permission and a test that exists', async () => {
      const permissions = documentedPermissions(await openApiPaths(app()));
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
});
