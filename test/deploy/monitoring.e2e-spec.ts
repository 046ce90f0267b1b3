import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../support/service-process';
import { useTestApp } from '../support/test-app';

const RULES_FILE = path.join(PROJECT_ROOT, 'deploy', 'prometheus', 'alerts.yml');
const DASHBOARD_FILE = path.join(PROJECT_ROOT, 'deploy', 'grafana', 'relayer-management.json');

/**
 * Metrics other parts of the service add that the rules and the dashboard already name (agreed
 * names): the count of paused webhook targets.
 */
const AGREED_METRICS = ['webhook_targets_paused'];

/** Series a histogram or a summary adds to its name. */
const SERIES_SUFFIXES = ['_bucket', '_sum', '_count'];
const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan']);

/**
 * The metric names a PromQL expression selects: what is left once strings, label matchers, ranges
 * and grouping lists are taken out, without functions (a name before `(`) and keywords.
 */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names: string[] = [];
  for (const match of bare.matchAll(/(?<![\w.:])[a-zA-Z_:][\w:]*/g)) {
    const after = bare.slice((match.index ?? 0) + match[0].length);
    if (/^\s*\(/.test(after) || KEYWORDS.has(match[0].toLowerCase())) continue;
    names.push(match[0]);
  }
  return [...new Set(names)];
}

function balanced(expr: string): boolean {
  let depth = 0;
  for (const c of expr) {
    if (c === '(') depth++;
    if (c === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

interface Rule {
  alert?: unknown;
  expr?: unknown;
  for?: unknown;
  labels?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

describe('the shipped Prometheus rules and Grafana dashboard (docs/alerts.md)', () => {
  const handle = useTestApp();
  let served: string[] = [];
  beforeAll(async () => {
    served = (await handle.current.get('/metrics').expect(200)).body as string[];
  });
  const known = (name: string): boolean =>
    [...served, ...AGREED_METRICS].some(
      (metric) => name === metric || SERIES_SUFFIXES.some((suffix) => name === `${metric}${suffix}`),
    );

  it('the expression reader finds metric names, not functions, labels or keywords', () => {
    expect(
      metricNames(
        'max by (relayer_id, network) (relayer_balance) and on (relayer_id) max(relayer_low_balance{network="a b"}) == 1',
      ),
    ).toEqual(['relayer_balance', 'relayer_low_balance']);
    expect(
      metricNames(
        'histogram_quantile(0.95, sum by (le) (rate(http_request_duration_seconds_bucket[5m]))) > 1e3',
      ),
    ).toEqual(['http_request_duration_seconds_bucket']);
  });

  it('alerts.yml: groups of rules, each with alert, expr, for, labels and annotations, naming only metrics the service exposes (and promtool accepts it, where installed)', () => {
    if (!spawnSync('promtool', ['--version'], { stdio: 'ignore' }).error) {
      expect(execFileSync('promtool', ['check', 'rules', RULES_FILE], { encoding: 'utf8' })).toMatch(
        /SUCCESS/,
      );
    }
    const document = parse(fs.readFileSync(RULES_FILE, 'utf8')) as { groups?: unknown };
    expect(Array.isArray(document.groups)).toBe(true);
    const groups = document.groups as Array<{ name?: unknown; rules?: unknown }>;
    const problems: string[] = [];
    const alerts: string[] = [];
    for (const group of groups) {
      if (typeof group.name !== 'string' || !Array.isArray(group.rules) || group.rules.length === 0) {
        problems.push(`group ${String(group.name)}: a name and rules`);
        continue;
      }
      for (const rule of group.rules as Rule[]) {
        const name = String(rule.alert);
        alerts.push(name);
        if (typeof rule.alert !== 'string' || !/^[A-Z][A-Za-z0-9]+$/.test(rule.alert))
          problems.push(`${name}: alert`);
        if (typeof rule.expr !== 'string' || !balanced(rule.expr)) problems.push(`${name}: expr`);
        if (typeof rule.for !== 'string' || !/^\d+[smhdwy]$/.test(rule.for)) problems.push(`${name}: for`);
        if (!['info', 'warning', 'critical'].includes(String(rule.labels?.severity))) {
          problems.push(`${name}: labels.severity`);
        }
        if (
          typeof rule.annotations?.summary !== 'string' ||
          typeof rule.annotations.description !== 'string'
        ) {
          problems.push(`${name}: annotations.summary and description`);
        }
        const names = typeof rule.expr === 'string' ? metricNames(rule.expr) : [];
        if (names.length === 0) problems.push(`${name}: no metric in its expr`);
        for (const metric of names.filter((m) => !known(m)))
          problems.push(`${name}: unknown metric ${metric}`);
      }
    }
    expect(problems).toEqual([]);
    expect(new Set(alerts).size).toBe(alerts.length);
    expect(alerts).toEqual(
      expect.arrayContaining([
        'RelayerLowBalance',
        'RelayersDisabled',
        'WebhookBacklogOld',
        'WebhookTargetsPaused',
      ]),
    );
  });

  it('the Grafana dashboard parses, has unique panel ids, and every panel query names metrics the service exposes', () => {
    const dashboard = JSON.parse(fs.readFileSync(DASHBOARD_FILE, 'utf8')) as {
      title?: unknown;
      uid?: unknown;
      panels?: Array<{ id?: unknown; title?: unknown; targets?: Array<{ expr?: unknown }> }>;
    };
    expect({ title: dashboard.title, uid: dashboard.uid }).toEqual({
      title: 'Relayer management',
      uid: 'relayer-management',
    });
    const panels = dashboard.panels ?? [];
    expect(panels.length).toBeGreaterThan(0);
    expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length);
    const problems: string[] = [];
    const named = new Set<string>();
    for (const panel of panels) {
      const exprs = (panel.targets ?? []).map((t) => t.expr);
      if (exprs.length === 0) problems.push(`${String(panel.title)}: no query`);
      for (const expr of exprs) {
        if (typeof expr !== 'string' || !balanced(expr)) {
          problems.push(`${String(panel.title)}: expr`);
          continue;
        }
        for (const metric of metricNames(expr)) {
          named.add(metric);
          if (!known(metric)) problems.push(`${String(panel.title)}: unknown metric ${metric}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect([...named]).toEqual(
      expect.arrayContaining(['relayer_balance', 'relayer_low_balance', 'relayers_low_balance']),
    );
  });
});
