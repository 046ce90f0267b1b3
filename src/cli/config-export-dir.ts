import fs from 'node:fs';
import path from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { AppModule } from '../app.module';
import { loadConfig } from '../config/app-config';
import { ConfigExportService, EnvNames, type ExportedConfig } from '../config-file';
import { signerKeystore } from '../signers';

type Json = Record<string, unknown>;

/** Where the written config.json names its networks and keystores: the reference system's container layout. */
const NETWORKS_FOLDER = './config/networks';
const KEYS_FOLDER = 'config/keys';

/**
 * `npm run config -- export <dir>` (docs/reference/config-file.md#36-going-back-to-the-reference-system):
 * the managed state in the reference system's layout, `<dir>/config.json`, `<dir>/networks/<type>.json`
 * and a keystore `<dir>/keys/<id>.json` for each key-holding signer, encrypted with the passphrase of
 * SIGNER_<ID>_PASSPHRASE, with scrypt's cost `scryptN` (DEFAULT_SCRYPT_N when undefined). Every variable
 * is checked before anything is written; `<dir>` must be new or empty.
 */
export async function exportToDirectory(dir: string | undefined, scryptN?: number): Promise<number> {
  if (!dir) throw new Error('usage: npm run config -- export <dir>');
  const target = path.resolve(dir);
  if (fs.existsSync(target) && fs.readdirSync(target).length > 0)
    throw new Error(`${target} is not empty: an export is never written over files`);
  // The service's context without HTTP, as a start makes it; no health checks for the export's short life.
  const config = loadConfig({ ...process.env, RELAYER_HEALTH_CHECKS: 'false' });
  const app = await NestFactory.createApplicationContext(AppModule.register(config), {
    bufferLogs: true,
    abortOnError: false,
  });
  try {
    app.useLogger(app.get(Logger));
    // RPC URLs whole: the reference system's files have no other form for them.
    const exported = await app.get(ConfigExportService).export('whole');
    const files = await referenceFiles(exported, app, scryptN);
    fs.mkdirSync(path.join(target, 'networks'), { recursive: true });
    fs.mkdirSync(path.join(target, 'keys'), { recursive: true });
    for (const [name, text] of files) {
      // Owner-only, every file: the RPC URLs may hold their providers' keys, as the source files did.
      fs.writeFileSync(path.join(target, name), text, { flag: 'wx', mode: 0o600 });
    }
    process.stdout.write(`${target}: ${files.length} files written\n`);
    return 0;
  } finally {
    await app.close();
  }
}

/** The files of the export by path under `<dir>`; throws, naming them, when passphrase variables are unset. */
async function referenceFiles(
  exported: ExportedConfig,
  app: INestApplicationContext,
  scryptN: number | undefined,
): Promise<Array<[string, string]>> {
  const env = new EnvNames();
  const keyHolding = exported.signers
    .filter(({ type }) => type === 'plain')
    .map(({ id }) => ({ id: String(id), passphrase: env.reference('SIGNER', String(id), 'PASSPHRASE') }));
  env.assign();
  const unset = keyHolding.map(({ passphrase }) => passphrase.value).filter((name) => !process.env[name]);
  if (unset.length > 0)
    throw new Error(
      `set ${unset.join(', ')}: the passphrase${unset.length > 1 ? 's' : ''} of the exported keystores (nothing written)`,
    );
  const keystores: Array<[string, string]> = [];
  const local = new Map<string, Json>();
  for (const { id, passphrase } of keyHolding) {
    const keystore = await signerKeystore(app, id, process.env[passphrase.value] ?? '', scryptN).catch(
      (error: unknown) => {
        throw new Error(`signer ${id}: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
    if (keystore === undefined) throw new Error(`signer ${id} holds no key to export`);
    keystores.push([`keys/${id}.json`, `${keystore}\n`]);
    local.set(id, { id, type: 'local', config: { path: `${KEYS_FOLDER}/${id}.json`, passphrase } });
  }
  const byType = new Map<string, Json[]>();
  for (const network of exported.networks) {
    const type = String(network.type);
    byType.set(type, [...(byType.get(type) ?? []), network]);
  }
  const file = {
    ...exported,
    networks: NETWORKS_FOLDER,
    signers: exported.signers.map((signer) => local.get(String(signer.id)) ?? signer),
  };
  return [
    ['config.json', `${JSON.stringify(file, null, 2)}\n`],
    ...[...byType].map(([type, networks]): [string, string] => [
      `networks/${type}.json`,
      `${JSON.stringify({ networks }, null, 2)}\n`,
    ]),
    ...keystores,
  ];
}
