import fs from 'node:fs';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { describeContent, readConfigFile, type ConfigFile } from '../catalogue/catalogue.module';
import { checkDto } from '../common/validation/validation.pipe';
import { loadConfig, type AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from '../database/data-source-options';
import { CreateNotificationDto } from '../notifications/notifications.service';
import { CreateRelayerDto } from '../relayers/relayers.service';
import { exportToDirectory } from './config-export-dir';
import { describePlan, planChanges, underEntry, type FieldDigests, type StoredState } from './config-plan';

interface AppliedRow {
  kind: string;
  id: string;
  digest: string;
  fields: string | null;
}

/**
 * `npm run config -- check|plan [file]` (docs/reference/config-file.md#35-checking-and-planning-without-starting):
 * the start's messages and exit status 0 or 1. `plan` reads the configured database, never writes it.
 */
async function main([command, file]: readonly string[]): Promise<number> {
  if (command === 'export') return exportToDirectory(file);
  if (command !== 'check' && command !== 'plan')
    throw new Error('usage: npm run config -- check|plan [file] | export <dir>');
  const config = loadConfig({ ...process.env, ...(file ? { CONFIG_FILE: path.resolve(file) } : {}) });
  const content = await readConfigFile(config);
  const problems = staticProblems(content).map((problem) => `CONFIG_FILE ${content.file}: ${problem}`);
  if (problems.length > 0) throw new Error(problems.join('\n'));
  const lines =
    command === 'check'
      ? [`${content.file}: valid (${describeContent(content)})`]
      : describePlan(content.file, await planChanges(content, await readState(config)));
  process.stdout.write(`${lines.length === 0 ? 'nothing to create or update' : lines.join('\n')}\n`);
  return 0;
}

/** The rules the API checks without a database: each entry's body, its network in the catalogue. */
function staticProblems({ catalogue, relayers, notifications }: ConfigFile): string[] {
  const problems = notifications.flatMap(({ body }, i) =>
    checkDto(CreateNotificationDto, body).problems.map((problem) =>
      underEntry(`notifications[${i}]`, problem),
    ),
  );
  relayers.forEach(({ body }, i) => {
    const { value, problems: shape, failed } = checkDto(CreateRelayerDto, body);
    const { network, network_type: type } = value;
    const known = failed.has('network') || failed.has('network_type') || catalogue.findNetwork(type, network);
    const missing = known ? [] : [`Network '${network}' not found for network type '${type}'`];
    problems.push(...[...shape, ...missing].map((problem) => underEntry(`relayers[${i}]`, problem)));
  });
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
  const notifications = await rows<{ id: string }>('SELECT id FROM notifications');
  await dataSource.destroy();
  const stored = new Map<string, object>([
    ...relayers.map(({ id, ...fields }) => [`relayer:${id}`, fields] as const),
    ...notifications.map(({ id }) => [`notification:${id}`, {}] as const),
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
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
