import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { base58 } from '@scure/base';
import { exportToDirectory } from '../../src/cli/config-export-dir';
import {
  AwsKmsFake,
  Ed25519TestKey,
  Secp256k1TestKey,
  googleServiceAccountKey,
} from '../support/key-service-fakes';
import { Checker, FIXTURES, isObject, readJson, type Json } from '../support/reference-fields';
import { secrets } from '../support/secrets';
import { freePort } from '../support/service-process';
import { startTestApp, type Env, type TestApp } from '../support/test-app';
import { TEST_DB } from '../support/test-database';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * The reference system's own example configurations (test/fixtures/openzeppelin-relayer, v1.8.0) as a
 * team moving over would try them (docs/coming-from-openzeppelin-relayer.md): each example's `config/`
 * set up as its README says (the blanks it asks for filled, a keystore made with the project's own tool
 * at each path the file names, the variables it names set), in the container layout (a working
 * directory holding `config/`, the stock networks mounted at `config/networks`), started unchanged;
 * then `config export <dir>` and a second start on the export. AWS KMS answers through a local
 * stand-in (the AWS SDK's own AWS_ENDPOINT_URL_KMS); Google Cloud KMS, Azure Key Vault and a Vault
 * at an unresolvable host are not reachable here, and those starts stop naming the signer and the
 * service (docs/coming-from-openzeppelin-relayer.md#what-the-trial-showed). The database does not matter
 * to what is read, so the trial runs on the embedded one.
 */
const describeEmbedded = TEST_DB === 'mysql' ? describe.skip : describe;

const EXAMPLES_DIR = path.join(FIXTURES, 'examples');
const EXAMPLES = ['config.example', ...fs.readdirSync(EXAMPLES_DIR).sort()];
const KEYSTORE_TOOL = path.resolve(__dirname, '../../scripts/create-keystore.mjs');
/** The keystores of the trial are throwaway keys: a low scrypt cost keeps 60 decryptions cheap. */
const SCRYPT_N = 1024;

/** The five that need a cloud key service this machine cannot reach, with the reason each stops. */
const UNREACHABLE: Readonly<Record<string, [signer: string, service: string]>> = {
  'evm-azure-key-vault-signer': ['azure-key-vault-signer-evm', 'Azure Key Vault (azure_key_vault)'],
  'evm-gcp-kms-signer': ['gcp-kms-signer-evm', 'Google Cloud KMS (google_cloud_kms)'],
  'solana-google-cloud-kms-signer': ['google-cloud-kms-signer-solana', 'Google Cloud KMS (google_cloud_kms)'],
  'stellar-gcp-kms-signer': ['gcp-kms-signer-stellar', 'Google Cloud KMS (google_cloud_kms)'],
  'vault-secret-signer': ['local-vault', 'HashiCorp Vault (vault)'],
};

const PASSPHRASE = secrets.add(`trial-${randomBytes(12).toString('hex')}`);
const WEBHOOK_SIGNING_KEY = secrets.add(randomUUID());
const STORAGE_ENCRYPTION_KEY = secrets.add(randomBytes(32).toString('base64'));
const evmKey = new Secp256k1TestKey();
const edKey = new Ed25519TestKey();

type NetworkType = 'evm' | 'solana' | 'stellar';

/** The source file's network type of each signer, from the relayers on it. */
function signerNetworkTypes(file: Json): Map<string, NetworkType> {
  const types = new Map<string, NetworkType>();
  for (const relayer of file.relayers as Json[]) {
    types.set(String(relayer.signer_id), relayer.network_type as NetworkType);
  }
  return types;
}

/** What each README asks for: the blanks of the file filled with the values of the user's own account. */
function fillBlanks(file: Json, hookUrl: string): Json {
  const types = signerNetworkTypes(file);
  const blank = (value: unknown): boolean => value === '';
  for (const notification of (file.notifications as Json[] | undefined) ?? []) {
    if (blank(notification.url)) notification.url = hookUrl;
  }
  for (const signer of file.signers as Json[]) {
    const config = signer.config as Json;
    const evm = types.get(String(signer.id)) === 'evm';
    const fill = (key: string, value: string) => {
      if (blank(config[key])) config[key] = value;
    };
    fill('region', 'us-east-1');
    fill('key_id', `alias/${String(signer.id)}`);
    fill('api_key_id', 'organizations/trial/apiKeys/key-1');
    fill('account_address', evm ? evmKey.evm.toLowerCase() : base58.encode(edKey.publicKey));
    fill('api_public_key', '02abcd');
    fill('organization_id', 'trial-organization');
    fill('private_key_id', 'trial-private-key');
    fill(
      'public_key',
      evm ? evmKey.point.getPublicKey('hex', 'uncompressed') : edKey.publicKey.toString('hex'),
    );
    fill('pubkey', edKey.publicKey.toString('base64'));
    for (const nested of ['service_account', 'key']) {
      const part = config[nested];
      if (!isObject(part)) continue;
      for (const [key, value] of Object.entries(part)) if (blank(value)) part[key] = `trial-${key}`;
    }
  }
  return file;
}

/** Every `{"type": "env", "value": NAME}` of a JSON value. */
function envReferences(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => envReferences(item, found));
  else if (isObject(value)) {
    if (value.type === 'env' && typeof value.value === 'string') found.add(value.value);
    else Object.values(value).forEach((item) => envReferences(item, found));
  }
  return found;
}

/** The value a README tells the user to put in each variable the file names. */
function variableValue(name: string): string {
  if (name.startsWith('KEYSTORE_PASSPHRASE')) return PASSPHRASE;
  if (name === 'WEBHOOK_SIGNING_KEY') return WEBHOOK_SIGNING_KEY;
  if (/PRIVATE_KEY$/.test(name) && /GCP|GOOGLE/.test(name)) return googleServiceAccountKey();
  if (name.endsWith('CLIENT_EMAIL')) return 'trial@trial-project.iam.gserviceaccount.com';
  return secrets.add(`${name.toLowerCase()}-${randomBytes(16).toString('hex')}`);
}

interface Layout {
  /** The working directory holding `config/`. */
  readonly root: string;
  readonly file: Json;
  readonly env: Env;
}

/** The keystores made once with the project's tool, by file name, copied to every path that names them. */
const keystores = new Map<string, string>();

function keystore(name: string): string {
  let made = keystores.get(name);
  if (made === undefined) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trial-keys-'));
    const run = spawnSync(process.execPath, [KEYSTORE_TOOL, '--out', name, '--scrypt-n', String(SCRYPT_N)], {
      cwd: dir,
      env: { PATH: process.env.PATH, INIT_CWD: dir, KEYSTORE_PASSPHRASE: PASSPHRASE },
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    made = path.join(dir, name);
    keystores.set(name, made);
  }
  return made;
}

/** The example's `config/` in a new working directory, as its docker-compose file mounts it. */
function setUp(example: string, hookUrl: string): Layout {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `trial-${example}-`));
  const config = path.join(root, 'config');
  if (example === 'config.example') {
    fs.mkdirSync(config);
    fs.copyFileSync(path.join(FIXTURES, 'config/config.example.json'), path.join(config, 'config.json'));
  } else {
    fs.cpSync(path.join(EXAMPLES_DIR, example, 'config'), config, { recursive: true });
  }
  const file = fillBlanks(readJson(path.join(config, 'config.json')) as Json, hookUrl);
  fs.writeFileSync(path.join(config, 'config.json'), JSON.stringify(file, null, 2));
  // The stock networks, mounted at config/networks, where the file has no list and brings no folder.
  if (!Array.isArray(file.networks) && !fs.existsSync(path.join(config, 'networks'))) {
    fs.cpSync(path.join(FIXTURES, 'config/networks'), path.join(config, 'networks'), { recursive: true });
  }
  for (const signer of file.signers as Json[]) {
    if (signer.type !== 'local') continue;
    const written = String((signer.config as Json).path);
    fs.mkdirSync(path.dirname(path.join(root, written)), { recursive: true });
    fs.copyFileSync(keystore(path.basename(written)), path.join(root, written));
  }
  const env: Env = {};
  for (const name of envReferences(file)) env[name] = variableValue(name);
  return { root, file, env };
}

/** Starts the service with `root` as its working directory and no CONFIG_FILE: `./config/config.json`. */
async function startIn(root: string, env: Env): Promise<TestApp> {
  const before = process.cwd();
  process.chdir(root);
  try {
    return await startTestApp({ ...env, CONFIG_FILE: undefined });
  } finally {
    process.chdir(before);
  }
}

/** `npm run config -- export <dir>` as the command runs it: the service's environment, from `root`. */
async function exportFrom(root: string, env: Env, dir: string): Promise<void> {
  const [before, saved] = [process.cwd(), process.env];
  process.chdir(root);
  process.env = { ...saved, ...env, LOG_LEVEL: 'silent', CONFIG_FILE: undefined };
  const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    expect(await exportToDirectory(dir, SCRYPT_N)).toBe(0);
  } finally {
    write.mockRestore();
    process.env = saved;
    process.chdir(before);
  }
}

type Lists = Record<'relayers' | 'notifications' | 'signers' | 'networks', Json[]>;

async function lists(app: TestApp): Promise<Lists> {
  const out = {} as Lists;
  for (const resource of ['relayers', 'notifications', 'signers', 'networks'] as const) {
    const items: Json[] = [];
    for (let page = 1; ; page++) {
      const res = await app.get(`/api/v1/${resource}?per_page=100&page=${page}`).expect(200);
      const body = res.body as { data: Json[]; pagination: { total_items: number } };
      items.push(...body.data.map(({ created_at: _c, updated_at: _u, ...rest }) => rest));
      if (items.length >= body.pagination.total_items) break;
    }
    out[resource] = items.sort((a, b) => String(a.id ?? a.network).localeCompare(String(b.id ?? b.network)));
  }
  return out;
}

/** The networks of the file: its inline list, else every file of its folder (`./config/networks` by default). */
function networkEntries(layout: Layout): Json[] {
  const { networks } = layout.file;
  if (Array.isArray(networks)) return networks as Json[];
  const folder = path.join(layout.root, typeof networks === 'string' ? networks : 'config/networks');
  return fs
    .readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => (readJson(path.join(folder, name)) as { networks: Json[] }).networks);
}

/**
 * The variables a start on the export needs, with the values the source had: each `{"type": "env"}`
 * the export wrote stands where the source had a value, an `{"type": "env"}` of its own or a URL.
 */
function exportVariables(exported: unknown, source: unknown, sourceEnv: Env, into: Env = {}): Env {
  if (isObject(exported) && exported.type === 'env' && typeof exported.value === 'string') {
    const value =
      isObject(source) && source.type === 'env'
        ? sourceEnv[String(source.value)]
        : isObject(source)
          ? source.value
          : source;
    if (typeof value === 'string') into[exported.value] = value;
  } else if (Array.isArray(exported) && Array.isArray(source)) {
    exported.forEach((item, i) => exportVariables(item, source[i], sourceEnv, into));
  } else if (isObject(exported) && isObject(source)) {
    for (const [key, value] of Object.entries(exported)) exportVariables(value, source[key], sourceEnv, into);
  }
  return into;
}

/** Source and export side by side: entries paired by id (networks by type and name). */
function byKey(entries: unknown): Map<string, Json> {
  const key = (entry: Json) =>
    typeof entry.id === 'string' ? entry.id : `${String(entry.type)}:${String(entry.network)}`;
  return new Map(((entries as Json[] | undefined) ?? []).map((entry) => [key(entry), entry]));
}

function exportEnv(layout: Layout, exportRoot: string): Env {
  const written = readJson(path.join(exportRoot, 'config/config.json')) as Json;
  const env: Env = {};
  for (const section of ['signers', 'relayers', 'notifications']) {
    const source = byKey(layout.file[section]);
    for (const [id, entry] of byKey(written[section]))
      exportVariables(entry, source.get(id), layout.env, env);
  }
  const sourceNetworks = byKey(networkEntries(layout));
  for (const name of fs.readdirSync(path.join(exportRoot, 'config/networks'))) {
    const file = readJson(path.join(exportRoot, 'config/networks', name)) as { networks: Json[] };
    for (const [key, entry] of byKey(file.networks))
      exportVariables(entry, sourceNetworks.get(key), layout.env, env);
  }
  return { ...env, ...passphraseVariables(written) };
}

/** SIGNER_<ID>_PASSPHRASE of each key-holding signer: what the export encrypts with and the copy decrypts with. */
function passphraseVariables(file: Json): Env {
  const local = (file.signers as Json[]).filter(({ type }) => type === 'local' || type === 'plain');
  return Object.fromEntries(
    local.map(({ id }) => [
      `SIGNER_${String(id)
        .toUpperCase()
        .replace(/[^A-Z0-9]/g, '_')}_PASSPHRASE`,
      PASSPHRASE,
    ]),
  );
}

describeEmbedded(
  "The reference system's 32 example configurations, unchanged (docs/coming-from-openzeppelin-relayer.md)",
  () => {
    const receiver = new WebhookReceiver();
    const aws = new AwsKmsFake();
    let closedPort: number;
    const started: string[] = [];

    beforeAll(async () => {
      await Promise.all([receiver.start(), aws.start()]);
      closedPort = await freePort();
      for (const example of EXAMPLES) {
        const file = readJson(
          path.join(
            example === 'config.example'
              ? path.join(FIXTURES, 'config/config.example.json')
              : path.join(EXAMPLES_DIR, example, 'config/config.json'),
          ),
        ) as Json;
        for (const signer of file.signers as Json[]) {
          if (signer.type !== 'aws_kms') continue;
          const evm = signerNetworkTypes(file).get(String(signer.id)) === 'evm';
          aws.keys.set(
            `alias/${String(signer.id)}`,
            evm
              ? { spki: evmKey.spki(), spec: 'ECC_SECG_P256K1' }
              : { spki: edKey.spki(), spec: 'ECC_NIST_EDWARDS25519' },
          );
        }
      }
      // The AWS SDK's credential chain reads these from the environment, as in a deployment.
      process.env.AWS_ACCESS_KEY_ID = 'AKIATRIALEXAMPLES';
      process.env.AWS_SECRET_ACCESS_KEY = secrets.add(randomBytes(20).toString('base64'));
    });
    afterAll(async () => {
      await Promise.all([receiver.close(), aws.close()]);
    });

    /** The service's environment of a deployment: the example's variables, the key services' endpoints. */
    const serviceEnv = (layout: Layout): Env => ({
      ...layout.env,
      DATABASE_URL: `sqlite:${path.join(layout.root, 'relayer.sqlite')}`,
      STORAGE_ENCRYPTION_KEY,
      AWS_ENDPOINT_URL_KMS: aws.url(),
      // Not reachable from here: the cloud endpoints stand on a closed local port.
      GOOGLE_CLOUD_KMS_ENDPOINT: `http://127.0.0.1:${closedPort}`,
      AZURE_AUTHORITY_HOST: `http://127.0.0.1:${closedPort}`,
    });

    it('holds the 32 examples of v1.8.0', () => {
      expect(EXAMPLES).toHaveLength(32);
    });

    it.each(EXAMPLES.filter((example) => UNREACHABLE[example] !== undefined))(
      '%s stops, naming the signer and the key service it cannot reach',
      async (example) => {
        const layout = setUp(example, receiver.url(`/${example}`));
        const [signer, service] = UNREACHABLE[example];
        const file = path.join(layout.root, 'config/config.json');
        await expect(startIn(layout.root, serviceEnv(layout))).rejects.toThrow(
          `CONFIG_FILE ${file}: signer '${signer}': Signer ${signer}: ${service} could not be reached: `,
        );
      },
    );

    it.each(EXAMPLES.filter((example) => UNREACHABLE[example] === undefined))(
      '%s starts as its README sets it up; its export starts the same state and keeps to the reference fields',
      async (example) => {
        const layout = setUp(example, receiver.url(`/${example}`));
        const env = serviceEnv(layout);
        const app = await startIn(layout.root, env);
        let first: Lists;
        try {
          first = await lists(app);
        } finally {
          await app.close();
        }
        // The lists answer what the file holds.
        const relayerFields = (relayer: Json) => ({
          id: relayer.id,
          name: relayer.name,
          network: relayer.network,
          network_type: relayer.network_type,
          paused: relayer.paused,
          signer_id: relayer.signer_id,
          notification_id: relayer.notification_id ?? null,
        });
        expect(first.relayers.map(relayerFields)).toEqual(
          [...byKey(layout.file.relayers).values()]
            .map(relayerFields)
            .sort((a, b) => String(a.id).localeCompare(String(b.id))),
        );
        expect(first.signers.map(({ id, type }) => ({ id, type }))).toEqual(
          (layout.file.signers as Json[])
            .map(({ id, type }) => ({ id, type }))
            .sort((a, b) => String(a.id).localeCompare(String(b.id))),
        );
        expect(first.notifications.map(({ id, url }) => ({ id, url }))).toEqual(
          ((layout.file.notifications as Json[] | undefined) ?? [])
            .map(({ id, url }) => ({ id, url }))
            .sort((a, b) => String(a.id).localeCompare(String(b.id))),
        );
        expect(first.networks.map((network) => String(network.id)).sort()).toEqual(
          networkEntries(layout)
            .map((network) => `${String(network.type)}:${String(network.network)}`)
            .sort(),
        );

        // The export, in the reference system's layout, keeps to its fields (fields.json), every file owner-only.
        const exportRoot = fs.mkdtempSync(path.join(os.tmpdir(), `trial-${example}-export-`));
        await exportFrom(
          layout.root,
          { ...env, ...passphraseVariables(layout.file) },
          path.join(exportRoot, 'config'),
        );
        const checker = new Checker();
        checker.configFile(readJson(path.join(exportRoot, 'config/config.json')));
        for (const name of fs.readdirSync(path.join(exportRoot, 'config/networks'))) {
          checker.networkFile(`networks/${name}`, readJson(path.join(exportRoot, 'config/networks', name)));
        }
        expect(checker.problems).toEqual([]);
        const written = fs.readdirSync(path.join(exportRoot, 'config'), {
          recursive: true,
          encoding: 'utf8',
        });
        const modes = written
          .filter((name) => name.endsWith('.json'))
          .map((name) => (fs.statSync(path.join(exportRoot, 'config', name)).mode & 0o777).toString(8));
        expect(new Set(modes)).toEqual(new Set(['600']));

        const copy = await startIn(exportRoot, {
          ...exportEnv(layout, exportRoot),
          DATABASE_URL: `sqlite:${path.join(exportRoot, 'relayer.sqlite')}`,
          STORAGE_ENCRYPTION_KEY,
          AWS_ENDPOINT_URL_KMS: aws.url(),
        });
        try {
          expect(await lists(copy)).toEqual(first);
          expect(secrets.foundIn(copy.logText())).toEqual([]);
        } finally {
          await copy.close();
        }
        started.push(example);
      },
    );

    it('27 of the 32 start; the other 5 stop fairly', () => {
      expect(started).toHaveLength(27);
    });
  },
);
