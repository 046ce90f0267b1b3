import fs from 'node:fs';
import path from 'node:path';

/**
 * fields.json, the list of every field the reference system's file format accepts (v1.8.0,
 * docs/reference/config-file.md#4-fields-of-the-reference-systems-file), and a checker that names every
 * way a file of ours or theirs leaves it.
 */
export const FIXTURES = path.resolve(__dirname, '../fixtures/openzeppelin-relayer');

interface FieldRule {
  readonly required: readonly string[];
  readonly optional: readonly string[];
}
interface Fields {
  readonly topLevel: FieldRule;
  readonly relayer: FieldRule;
  readonly relayerNetworkTypes: readonly string[];
  readonly rpcUrl: FieldRule;
  readonly secretValue: FieldRule;
  readonly secretValueTypes: readonly string[];
  readonly policies: Readonly<Record<string, FieldRule>>;
  readonly signer: FieldRule;
  readonly signers: Readonly<Record<string, FieldRule>>;
  readonly googleCloudKmsServiceAccount: FieldRule;
  readonly googleCloudKmsKey: FieldRule;
  readonly notification: FieldRule;
  readonly notificationTypes: readonly string[];
  readonly networkFile: FieldRule;
  readonly network: Readonly<Record<string, FieldRule>>;
  readonly gasPriceCache: FieldRule;
  readonly plugin: FieldRule;
}
export type Json = Record<string, unknown>;

const FIELDS = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'fields.json'), 'utf8')) as Fields;

export function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Every way an object breaks the rules of fields.json, as `<where>: <problem>` lines; `[]` when it keeps them.
 * A secret (`PlainOrEnvValue`), RPC URL entry or nested object is checked by the callers below.
 */
export class Checker {
  readonly problems: string[] = [];
  readonly used = new Set<string>();

  keys(where: string, value: unknown, ...rules: FieldRule[]): Json {
    if (!isObject(value)) {
      this.problems.push(`${where}: not an object`);
      return {};
    }
    const allowed = new Set(rules.flatMap((rule) => [...rule.required, ...rule.optional]));
    for (const key of Object.keys(value)) {
      this.used.add(key);
      if (!allowed.has(key)) this.problems.push(`${where}.${key}: not a field of the reference system`);
    }
    for (const key of rules.flatMap((rule) => rule.required)) {
      if (!(key in value)) this.problems.push(`${where}.${key}: required, missing`);
    }
    return value;
  }

  list(where: string, value: unknown, each: (item: unknown, at: string) => void): void {
    if (value === undefined) return;
    if (!Array.isArray(value)) {
      this.problems.push(`${where}: not an array`);
      return;
    }
    value.forEach((item, index) => each(item, `${where}[${index}]`));
  }

  oneOf(where: string, value: unknown, choices: readonly string[]): void {
    if (typeof value !== 'string' || !choices.includes(value)) {
      this.problems.push(`${where}: ${JSON.stringify(value)} is not one of ${choices.join(', ')}`);
    }
  }

  /** A secret: a `{type, value}` object (the reference system reads no bare string there). */
  secret(where: string, value: unknown): void {
    if (value === undefined) return;
    const ref = this.keys(where, value, FIELDS.secretValue);
    if ('type' in ref) this.oneOf(`${where}.type`, ref.type, FIELDS.secretValueTypes);
  }

  /** An RPC URL entry: a string or `{url, weight?}`. */
  rpcUrl(where: string, value: unknown): void {
    if (typeof value === 'string') return;
    const isEnvRef = (item: unknown): boolean => isObject(item) && item.type === 'env' && 'value' in item;
    if (isEnvRef(value) || (isObject(value) && isEnvRef(value.url))) {
      this.problems.push(`${where}: an environment reference, not an RPC URL of the reference system`);
      return;
    }
    this.keys(where, value, FIELDS.rpcUrl);
  }

  network(where: string, value: unknown): void {
    const type = isObject(value) ? value.type : undefined;
    this.oneOf(`${where}.type`, type, ['evm', 'solana', 'stellar']);
    const rules = [FIELDS.network.common, FIELDS.network[String(type)] ?? { required: [], optional: [] }];
    const network = this.keys(where, value, ...rules);
    this.list(`${where}.rpc_urls`, network.rpc_urls, (item, at) => this.rpcUrl(at, item));
    if (network.gas_price_cache !== undefined) {
      this.keys(`${where}.gas_price_cache`, network.gas_price_cache, FIELDS.gasPriceCache);
    }
  }

  networkFile(where: string, value: unknown): void {
    const file = this.keys(where, value, FIELDS.networkFile);
    this.list(`${where}.networks`, file.networks, (item, at) => this.network(at, item));
  }

  signer(where: string, value: unknown): void {
    const signer = this.keys(where, value, FIELDS.signer);
    const type = String(signer.type);
    const rule = FIELDS.signers[type];
    if (rule === undefined) {
      this.problems.push(
        `${where}.type: ${JSON.stringify(signer.type)} is not a signer type of the reference system`,
      );
      return;
    }
    const config = this.keys(`${where}.config`, signer.config, rule);
    const secrets: Record<string, readonly string[]> = {
      local: ['passphrase'],
      azure_key_vault: ['tenant_id', 'client_id', 'client_secret', 'federated_token_file'],
      turnkey: ['api_private_key'],
      cdp: ['api_key_secret', 'wallet_secret'],
      vault: ['role_id', 'secret_id'],
      vault_transit: ['role_id', 'secret_id'],
    };
    for (const key of secrets[type] ?? []) this.secret(`${where}.config.${key}`, config[key]);
    if (type === 'google_cloud_kms') {
      const account = this.keys(
        `${where}.config.service_account`,
        config.service_account,
        FIELDS.googleCloudKmsServiceAccount,
      );
      for (const key of ['private_key_id', 'private_key', 'client_email']) {
        this.secret(`${where}.config.service_account.${key}`, account[key]);
      }
      this.keys(`${where}.config.key`, config.key, FIELDS.googleCloudKmsKey);
    }
  }

  policies(where: string, networkType: string, value: unknown): void {
    const rules = FIELDS.policies;
    const policy = this.keys(where, value, rules[networkType]);
    const nested = (key: string, rule: FieldRule): Json =>
      policy[key] === undefined ? {} : this.keys(`${where}.${key}`, policy[key], rule);
    if (networkType === 'solana') {
      this.list(`${where}.allowed_tokens`, policy.allowed_tokens, (item, at) => {
        const token = this.keys(at, item, rules.solanaAllowedToken);
        if (token.swap_config !== undefined) {
          this.keys(`${at}.swap_config`, token.swap_config, rules.solanaAllowedTokenSwapConfig);
        }
      });
      const swap = nested('swap_config', rules.solanaSwapConfig);
      if (swap.jupiter_swap_options !== undefined) {
        this.keys(
          `${where}.swap_config.jupiter_swap_options`,
          swap.jupiter_swap_options,
          rules.solanaJupiterSwapOptions,
        );
      }
    }
    if (networkType === 'stellar') {
      this.list(`${where}.allowed_tokens`, policy.allowed_tokens, (item, at) => {
        const token = this.keys(at, item, rules.stellarAllowedToken);
        if (token.swap_config !== undefined) {
          this.keys(`${at}.swap_config`, token.swap_config, rules.stellarAllowedTokenSwapConfig);
        }
      });
      nested('swap_config', rules.stellarSwapConfig);
    }
  }

  relayer(where: string, value: unknown): void {
    const relayer = this.keys(where, value, FIELDS.relayer);
    this.oneOf(`${where}.network_type`, relayer.network_type, FIELDS.relayerNetworkTypes);
    if (relayer.policies !== undefined && FIELDS.relayerNetworkTypes.includes(String(relayer.network_type))) {
      this.policies(`${where}.policies`, String(relayer.network_type), relayer.policies);
    }
    this.list(`${where}.custom_rpc_urls`, relayer.custom_rpc_urls, (item, at) => this.rpcUrl(at, item));
  }

  notification(where: string, value: unknown): void {
    const notification = this.keys(where, value, FIELDS.notification);
    this.oneOf(`${where}.type`, notification.type, FIELDS.notificationTypes);
    // The reference system's `url` is a string: an environment reference is this service's form.
    if (notification.url !== undefined && typeof notification.url !== 'string') {
      this.problems.push(`${where}.url: an environment reference, not a URL of the reference system`);
    }
    this.secret(`${where}.signing_key`, notification.signing_key);
  }

  configFile(value: unknown): void {
    const root = this.keys('', value, FIELDS.topLevel);
    if (Array.isArray(root.networks))
      this.list('networks', root.networks, (item, at) => this.network(at, item));
    else if (root.networks !== undefined && typeof root.networks !== 'string') {
      this.problems.push('networks: neither an array nor a folder name');
    }
    this.list('signers', root.signers, (item, at) => this.signer(at, item));
    this.list('relayers', root.relayers, (item, at) => this.relayer(at, item));
    this.list('notifications', root.notifications, (item, at) => this.notification(at, item));
    this.list('plugins', root.plugins, (item, at) => this.keys(at, item, FIELDS.plugin));
  }
}
