import fs from 'node:fs';
import path from 'node:path';
import { DataSource } from 'typeorm';
import type { NetworkType, SignerForNetwork } from '../catalogue';
import { SCRYPT_N_RANGE, parseScryptN } from '../common/security/keystore';
import { DnsResolver } from '../common/security/dns-resolver';
import { bodyProblems, type BodyRules } from '../common/validation/dto-validation.pipe';
import { loadConfig, type AppConfig } from '../config/app-config';
import {
  CatalogueConfigError,
  describeContent,
  describePlan,
  planChanges,
  readConfigFile,
  underEntry,
  type ConfigFile,
  type FieldDigests,
  type FileEntry,
  type StoredState,
} from '../config-file';
import { AlertChannelCreateRules } from '../alert-channels';
import { buildDataSourceOptions } from '../database/data-source-options';
import { NotificationCreateRules } from '../notifications';
import { RelayerCreateRules } from '../relayers';
import { FileHostedSigners, KeyServices } from '../signers';
import { exportToDirectory } from './config-export-dir';

interface AppliedRow {
  kind: string;
  id: string;
  digest: string;
  fields: string | null;
}

/**
 * `npm run config -- check|plan [--online] [file]`
 * (docs/reference/config-file.md#35-checking-and-planning-without-starting): every problem of the
 * file on stderr and exit status 1, else 0. Neither writes anything; `plan` reads the configured
 * database. No key service is called unless `--online`.
 */
async function main(args: readonly string[]): Promise<number> {
  const online = args.includes('--online');
  const [command, file, ...rest] = args.filter((arg) => arg !== '--online');
  if (command === 'export') return exportToDirectory(file, scryptOption(rest));
  if (command !== 'check' && command !== 'plan') throw new Error(USAGE);
  const config = loadConfig({ ...process.env, ...(file ? { CONFIG_FILE: path.resolve(file) } : {}) });
  const warn = (message: string) => process.stderr.write(`${message}\n`);
  const hosted = new FileHostedSigners(config, new KeyServices(config, new DnsResolver()), { online });
  const content = await readConfigFile(config, warn, hosted, true);
  for (const id of hosted.unchecked) {
    warn(
      `CONFIG_FILE ${content.file}: signer '${id}': not checked offline (its addresses need a call to its ` +
        'key service; --online makes it): the relayers on it are not checked against its key',
    );
  }
  const problems = (await entryProblems(content, config, hosted.unchecked)).map(
    (problem) => `CONFIG_FILE ${content.file}: ${problem}`,
  );
  if (problems.length > 0) throw new Error(problems.join('\n'));
  const lines =
    command === 'check'
      ? [`${content.file}: valid (${describeContent(content)})`]
      : describePlan(content.file, await planChanges(content, await readState(config)));
  process.stdout.write(`${lines.length === 0 ? 'nothing to create or update' : lines.join('\n')}\n`);
  return 0;
}

const USAGE = 'usage: npm run config -- check|plan [--online] [file] | export <dir> [--scrypt-n <N>]';

/** `--scrypt-n <N>`: the keystores' scrypt cost, a power of two (docs/reference/config-file.md#36-going-back-to-the-reference-system). */
function scryptOption(rest: readonly string[]): number | undefined {
  if (rest.length === 0) return undefined;
  const n = rest.length === 2 && rest[0] === '--scrypt-n' ? parseScryptN(rest[1]) : undefined;
  if (n === undefined) {
    const { min, max } = SCRYPT_N_RANGE;
    throw new Error(`--scrypt-n must be a power of two from ${min} to ${max}\n${USAGE}`);
  }
  return n;
}

/**
 * Every entry by the rules a start applies to it (those of a POST: policies, URL policies, network,
 * signer), judged against the file alone: a signer created through the API is not found here.
 */
async function entryProblems(
  { catalogue, relayers, notifications, alertChannels = [] }: ConfigFile,
  config: AppConfig,
  unchecked: ReadonlySet<string>,
): Promise<string[]> {
  const fileSigners = {
    addressFor: (id: string, type: NetworkType): Promise<SignerForNetwork> =>
      Promise.resolve(
        unchecked.has(id)
          ? { kind: 'found', address: '' }
          : (catalogue.signerFor(id, type) ?? { kind: 'unknown' }),
      ),
  };
  const fileNotifications = { exists: () => Promise.resolve(true) };
  const sections: Array<[string, readonly FileEntry[], BodyRules<object, unknown>]> = [
    ['notifications', notifications, new NotificationCreateRules(config)],
    ['relayers', relayers, new RelayerCreateRules(catalogue, fileSigners, config, fileNotifications)],
    ['alert_channels', alertChannels, new AlertChannelCreateRules(config)],
  ];
  const problems: string[] = [];
  for (const [section, entries, rules] of sections) {
    for (const [i, { body }] of entries.entries()) {
      const found = await bodyProblems(rules, body);
      problems.push(...found.problems.map((problem) => underEntry(`${section}[${i}]`, problem)));
    }
  }
  return problems;
}

/** What is stored, read with plain queries; a database or a table not created yet holds nothing. */
async function readState(config: AppConfig): Promise<StoredState> {
  if (config.database.kind === 'sqlite' && !fs.existsSync(config.database.path)) {
    return { applied: new Map(), find: () => Promise.resolve(null) };
  }
  const dataSource = await new DataSource(buildDataSourceOptions(config.database)).initialize();
  const rows = async <T>(sql: string): Promise<T[]> => (await dataSource.query(sql).catch(() => [])) as T[];
  // Before the migration that added `fields`, the rows have none: every changed entry writes every field.
  const applied = await dataSource
    .query<AppliedRow[]>('SELECT kind, id, digest, fields FROM config_entries')
    .catch(() => rows<AppliedRow>('SELECT kind, id, digest, NULL AS fields FROM config_entries'));
  const relayers = await rows<{ id: string }>('SELECT id, network, network_type, signer_id FROM relayers');
  // Webhook targets and alert channels share the table: a channel is a row of another type.
  const targets = await rows<{ id: string; type: string }>('SELECT id, type FROM notifications');
  await dataSource.destroy();
  const stored = new Map<string, object>([
    ...relayers.map(({ id, ...fields }) => [`relayer:${id}`, fields] as const),
    ...targets.map(({ id, type }) =>
      type === 'webhook'
        ? ([`notification:${id}`, {}] as const)
        : ([`alert_channel:${id}`, { type }] as const),
    ),
  ]);
  return {
    applied: new Map(
      applied.map(({ kind, id, digest, fields }) => [
        `${kind}:${id}`,
        { digest, fields: fields === null ? null : (JSON.parse(fields) as FieldDigests) },
      ]),
    ),
    find: (kind, id) => Promise.resolve((stored.get(`${kind}:${id}`) as Record<string, unknown>) ?? null),
  };
}

main(process.argv.slice(2)).then(
  (status) => process.exit(status),
  (error: unknown) => {
    // A file that stops the start: every problem of the step that found the first.
    const problems = error instanceof CatalogueConfigError ? error.problems : [];
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${problems.length > 0 ? problems.join('\n') : message}\n`);
    process.exit(1);
  },
);
