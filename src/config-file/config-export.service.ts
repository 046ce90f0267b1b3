import { Inject, Injectable } from '@nestjs/common';
import { CONFIG_FILE_CONTENT, type ConfigFile } from './config-file-loader';
import { Page, PageQueryDto, MAX_PER_PAGE } from '../common/http/page.dto';
import { maskUrl } from '../common/security/url-masking';
import { RPC_WEIGHT } from '../common/validation/field-rules';
import type { RpcUrl } from '../common/validation/rpc-url-list';
import { AlertChannelsService, type ChannelConfig } from '../alert-channels';
import { NetworksService } from '../networks';
import { NotificationsService } from '../notifications';
import { RelayersService } from '../relayers';
import { isHostedSignerType, secretFields, SignersService } from '../signers';
import { EnvNames } from './env-names';

type Json = Record<string, unknown>;

/** The managed state as a configuration file in the reference system's format (docs/reference/config-file.md#3-taking-it-back-out). */
export interface ExportedConfig {
  networks: Json[];
  signers: Json[];
  notifications: Json[];
  relayers: Json[];
  /**
   * This service's own section, which the reference system does not read: absent without channels,
   * so that a reference system's state exports in its own fields only.
   */
  alert_channels?: Json[];
  /** The source file's, as they were (not run by this service); absent when the file had none. */
  plugins?: unknown[];
}

/**
 * How a URL that may hold a secret (one that maskUrl would change: an RPC URL an answer masks, a
 * target's URL with a path beyond `/` or a query) is written: `env`, an environment reference
 * (GET /api/v1/config); `whole`, the URL itself, for the reference system, whose files have no other
 * form (docs/reference/config-file.md#36-going-back-to-the-reference-system).
 */
export type SecretUrls = 'env' | 'whole';

const RELAYER_FIELDS = ['id', 'name', 'network', 'network_type', 'signer_id', 'paused'] as const;
const OPTIONAL_RELAYER_FIELDS = ['notification_id', 'policies', 'custom_rpc_urls'] as const;

@Injectable()
export class ConfigExportService {
  constructor(
    private readonly networks: NetworksService,
    private readonly signers: SignersService,
    private readonly notifications: NotificationsService,
    private readonly relayers: RelayersService,
    private readonly alertChannels: AlertChannelsService,
    @Inject(CONFIG_FILE_CONTENT) private readonly file: ConfigFile,
  ) {}

  /**
   * Secrets, and URLs that may hold one (unless `whole`), become `env` references; runtime state is
   * left out. A request's key exports what it may read: its scope's relayers, signers, targets and
   * alert channels (docs/reference/keys-and-audit.md#3-relayer-scope), every network.
   */
  async export(secretUrls: SecretUrls = 'env'): Promise<ExportedConfig> {
    const env = new EnvNames();
    const networks = (await all((query) => this.networks.listWithRpcUrls(query))).map(
      ({ network: { id, name, network_type: type, rpc_urls: _masked, ...fields }, rpcUrls }) => ({
        type,
        network: name,
        ...fields,
        rpc_urls: exportRpcUrls(rpcUrls, secretUrls, env, 'NETWORK', id),
      }),
    );
    const signers = (await all((query) => this.signers.list(query))).map(({ id, type, config }) => {
      if (!isHostedSignerType(type))
        return { id, type: 'plain', config: { key: env.reference('SIGNER', id, 'KEY') } };
      // A hosted signer keeps its shown fields; each credential becomes SIGNER_<ID>_<FIELD>.
      const exported = structuredClone(config) as Record<string, Json>;
      for (const field of secretFields(type, config)) {
        const [group, name] = field.includes('.') ? field.split('.') : [null, field];
        const holder = group === null ? exported : (exported[group] as Record<string, Json>);
        holder[name] = env.reference('SIGNER', id, field);
      }
      return { id, type, config: exported };
    });
    const notifications = (await all((query) => this.notifications.list(query))).map(
      ({ has_signing_key: hasKey, url, ...notification }) => ({
        ...notification,
        url: exportUrl(url, secretUrls, env, 'NOTIFICATION', notification.id, 'URL'),
        ...(hasKey ? { signing_key: env.reference('NOTIFICATION', notification.id, 'SIGNING_KEY') } : {}),
      }),
    );
    const relayers = (await all((query) => this.relayers.listWithRpcUrls(query))).map(
      ({ relayer, customRpcUrls }) => {
        const fields = [
          ...RELAYER_FIELDS,
          ...OPTIONAL_RELAYER_FIELDS.filter((field) => relayer[field] !== null),
        ];
        const exported: Json = Object.fromEntries(fields.map((field) => [field, relayer[field]]));
        if (customRpcUrls !== null)
          exported.custom_rpc_urls = exportRpcUrls(customRpcUrls, secretUrls, env, 'RELAYER', relayer.id);
        return exported;
      },
    );
    const alertChannels = (await all((query) => this.alertChannels.listWithConfigs(query))).map(
      ({ channel, config }) => ({ ...channel, config: exportChannelConfig(channel.id, config, env) }),
    );
    env.assign();
    const { plugins } = this.file;
    return {
      networks,
      signers,
      notifications,
      relayers,
      ...(alertChannels.length === 0 ? {} : { alert_channels: alertChannels }),
      ...(plugins === null ? {} : { plugins: [...plugins] }),
    };
  }
}

/**
 * An RPC URL that every answer shows whole is exported whole; one an answer masks becomes
 * `<PREFIX>_<ID>_RPC_URL_<i>`, inside `{url, weight}` when its weight is not the default
 * (docs/reference/config-file.md#32-no-secret-is-exported). One the file read from a variable is
 * exported under that variable's name, unless `whole`
 * (docs/reference/config-file.md#19-pending-shapes-of-the-reference-system).
 */
function exportRpcUrls(
  urls: ReadonlyArray<RpcUrl & { readonly variable?: string }>,
  secretUrls: SecretUrls,
  env: EnvNames,
  prefix: string,
  id: string,
): unknown[] {
  return urls.map(({ url, weight, variable }, index) => {
    const exported =
      variable !== undefined && secretUrls === 'env'
        ? env.named(variable)
        : exportUrl(url, secretUrls, env, prefix, id, `RPC_URL_${index}`);
    return typeof exported === 'string' || weight !== RPC_WEIGHT.default
      ? { url: exported, weight }
      : exported;
  });
}

/**
 * The one rule for URLs that may hold a secret: a URL of which masking hides nothing (`https://host/`,
 * a port at most: no path beyond `/`, no query, no credentials) is exported whole, any other as the
 * reference `<PREFIX>_<ID>_<FIELD>`, unless `whole` (docs/reference/config-file.md#32-no-secret-is-exported).
 */
function exportUrl(
  url: string,
  secretUrls: SecretUrls,
  env: EnvNames,
  prefix: string,
  id: string,
  field: string,
): string | ReturnType<EnvNames['reference']> {
  const hidesNothing = maskUrl(url) === URL.parse(url)?.href;
  return secretUrls === 'whole' || hidesNothing ? url : env.reference(prefix, id, field);
}

/**
 * An alert channel's secrets as `ALERT_CHANNEL_<ID>_WEBHOOK_URL` (by the rule of every URL that may hold
 * one) and `ALERT_CHANNEL_<ID>_ROUTING_KEY`, e-mail recipients as they are. Never whole: the reference
 * system does not read the section, so its export has no reason to hold them
 * (docs/reference/config-file.md#32-no-secret-is-exported).
 */
function exportChannelConfig(id: string, config: ChannelConfig, env: EnvNames): Json {
  if ('webhook_url' in config)
    return { webhook_url: exportUrl(config.webhook_url, 'env', env, 'ALERT_CHANNEL', id, 'WEBHOOK_URL') };
  if ('routing_key' in config) return { routing_key: env.reference('ALERT_CHANNEL', id, 'ROUTING_KEY') };
  return { to: [...config.to] };
}

/** Every item of a paged list, a page of the largest size at a time. */
async function all<T>(list: (query: PageQueryDto) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const found = (await list(Object.assign(new PageQueryDto(), { page, per_page: MAX_PER_PAGE }))).items;
    items.push(...found);
    if (found.length < MAX_PER_PAGE) return items;
  }
}
