import fs from 'node:fs';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfigFile, type ConfigFile } from '../catalogue/catalogue.module';
import { checkDto } from '../common/validation/validate-dto';
import { loadConfig } from '../config/app-config';
import { buildDataSourceOptions } from '../database/data-source-options';
import { CreateNotificationDto } from '../notifications/notifications.service';
import { CreateRelayerDto } from '../relayers/relayers.service';
import { describePlan, planChanges, underEntry, type StoredState } from './config-plan';

/**
 * `npm run config -- check [file]` and `npm run config -- plan [file]` (docs/reference/config-file.md#35-checking-and-planning-without-starting):
 * the start's messages and exit status 0 or 1. `plan` reads the configured database, never writes it.
 */
async function main(argv: readonly string[]): Promise<number> {
  const [command, file] = argv;
  if (command !== 'check' && command !== 'plan') {
    process.stderr.write('usage: npm run config -- check|plan [file]\n');
    return 1;
  }
  const env = { ...process.env, ...(file ? { CONFIG_FILE: path.resolve(file) } : {}) };
  const config = loadConfig(env);
  const content = await loadConfigFile({
    configFile: config.configFile,
    dataDir: config.dataDir,
    production: config.production,
    env: config.secretsEnv,
  });
  const problems = staticProblems(content);
  if (problems.length > 0)
    throw new Error(problems.map((p) => `CONFIG_FILE ${content.file}: ${p}`).join('\n'));
  if (command === 'check') {
    const { catalogue, relayers, notifications } = content;
    process.stdout.write(
      `${content.file}: valid (${catalogue.networkCount} networks, ${catalogue.signerCount} signers, ` +
        `${relayers.length} relayers, ${notifications.length} notifications)\n`,
    );
    return 0;
  }
  const lines = describePlan(content.file, await planChanges(content, await readState(config)));
  process.stdout.write(lines.length === 0 ? 'nothing to create or update\n' : `${lines.join('\n')}\n`);
  return 0;
}

/** The rules the API checks without a database: each entry's body, its network in the catalogue. */
function staticProblems({ catalogue, relayers, notifications }: ConfigFile): string[] {
  const problems: string[] = [];
  notifications.forEach((entry, i) => {
    for (const problem of checkDto(CreateNotificationDto, entry).problems) {
      problems.push(underEntry(`notifications[${i}]`, problem));
    }
  });
  relayers.forEach(({ body }, i) => {
    const checked = checkDto(CreateRelayerDto, body);
    const at = `relayers[${i}]`;
    for (const problem of checked.problems) problems.push(underEntry(at, problem));
    const { network, network_type: type } = checked.value;
    if (
      !checked.invalid.has('network') &&
      !checked.invalid.has('network_type') &&
      !catalogue.findNetwork(type, network)
    ) {
      problems.push(underEntry(at, `Network '${network}' not found for network type '${type}'`));
    }
  });
  return problems;
}

/** What is stored, read with plain queries; a database or table not created yet holds nothing. */
async function readState(config: ReturnType<typeof loadConfig>): Promise<StoredState> {
  const empty: StoredState = { applied: new Map(), find: () => Promise.resolve(null) };
  if (config.database.kind === 'sqlite' && !fs.existsSync(config.database.path)) return empty;
  const dataSource = new DataSource(buildDataSourceOptions(config.database));
  await dataSource.initialize();
  const rows = async <T>(sql: string, parameters: unknown[] = []): Promise<T[]> =>
    (await dataSource.query(sql, parameters).catch(() => [])) as T[];
  const applied = await rows<{ kind: string; id: string; digest: string }>(
    'SELECT kind, id, digest FROM config_entries',
  );
  const relayers = await rows<{ id: string; network: string; network_type: string; signer_id: string }>(
    'SELECT id, network, network_type, signer_id FROM relayers',
  );
  const notifications = new Set(
    (await rows<{ id: string }>('SELECT id FROM notifications')).map((row) => row.id),
  );
  await dataSource.destroy();
  const relayerById = new Map(relayers.map(({ id, ...fields }) => [id, fields]));
  return {
    applied: new Map(applied.map((row) => [`${row.kind}:${row.id}`, row.digest])),
    find: (kind, id) =>
      Promise.resolve(
        kind === 'notification' ? (notifications.has(id) ? {} : null) : (relayerById.get(id) ?? null),
      ),
  };
}

main(process.argv.slice(2)).then(
  (status) => process.exit(status),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
