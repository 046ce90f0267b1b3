import { Injectable } from '@nestjs/common';
import { Page, PageQueryDto, MAX_PER_PAGE } from '../common/http/page';
import { NetworksService } from '../networks/networks.service';
import { NotificationsService } from '../notifications/notifications.service';
import { RelayersService } from '../relayers/relayers.service';
import { SignersService } from '../signers/signers.service';

type Json = Record<string, unknown>;

/** The managed state as a configuration file in the reference system's format (docs/reference/config-file.md#3-taking-it-back-out). */
export interface ExportedConfig {
  networks: Json[];
  signers: Json[];
  notifications: Json[];
  relayers: Json[];
}

const RELAYER_FIELDS = ['id', 'name', 'network', 'network_type', 'signer_id', 'paused'] as const;
const OPTIONAL_RELAYER_FIELDS = ['notification_id', 'policies', 'custom_rpc_urls'] as const;
const NETWORK_FIELDS = [
  ...['chain_id', 'passphrase', 'horizon_url', 'gas_price_cache', 'symbol', 'explorer_urls'],
  ...['average_blocktime_ms', 'required_confirmations', 'features', 'tags', 'is_testnet', 'rpc_urls'],
];

/** `NOTIFICATION_<ID>_SIGNING_KEY`: the id upper-cased, every character other than A-Z and 0-9 as `_`. */
export function secretVariable(prefix: string, id: string, suffix: string): string {
  return `${prefix}_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_${suffix}`;
}

const env = (value: string): Json => ({ type: 'env', value });

@Injectable()
export class ConfigExportService {
  constructor(
    private readonly networks: NetworksService,
    private readonly signers: SignersService,
    private readonly notifications: NotificationsService,
    private readonly relayers: RelayersService,
  ) {}

  /** Secrets become `env` references; RPC URLs are masked as in every answer; runtime state is left out. */
  async export(): Promise<ExportedConfig> {
    const networks = (await all((query) => this.networks.list(query))).map((network) => {
      const entry: Json = { type: network.network_type, network: network.name };
      for (const field of NETWORK_FIELDS) {
        const value = (network as unknown as Json)[field];
        if (value !== undefined) entry[field] = value;
      }
      return entry;
    });
    const signers = (await all((query) => this.signers.list(query))).map(({ id }) => ({
      id,
      type: 'plain',
      config: { key: env(secretVariable('SIGNER', id, 'KEY')) },
    }));
    const notifications = (await all((query) => this.notifications.list(query))).map((item) => ({
      id: item.id,
      type: item.type,
      url: item.url,
      ...(item.has_signing_key
        ? { signing_key: env(secretVariable('NOTIFICATION', item.id, 'SIGNING_KEY')) }
        : {}),
    }));
    const relayers = (await all((query) => this.relayers.list(query))).map((relayer) => {
      const entry: Json = {};
      for (const field of RELAYER_FIELDS) entry[field] = relayer[field];
      for (const field of OPTIONAL_RELAYER_FIELDS) if (relayer[field] !== null) entry[field] = relayer[field];
      return entry;
    });
    return { networks, signers, notifications, relayers };
  }
}

/** Every item of a paged list, a page of the largest size at a time. */
async function all<T>(list: (query: PageQueryDto) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const query = Object.assign(new PageQueryDto(), { page, per_page: MAX_PER_PAGE });
    const found = (await list(query)).items;
    items.push(...found);
    if (found.length < MAX_PER_PAGE) return items;
  }
}
