import type { RpcUrl } from '../common/validation/rpc-url-list';

export const NETWORK_TYPES = ['evm', 'solana', 'stellar'] as const;
export type NetworkType = (typeof NETWORK_TYPES)[number];

export const isOneOf =
  <T extends string>(values: readonly T[]) =>
  (value: unknown): value is T =>
    typeof value === 'string' && (values as readonly string[]).includes(value);

export const isNetworkType = isOneOf(NETWORK_TYPES);

/** An RPC URL of the file; `variable`: the environment variable it was read from, for the export. */
export interface CatalogueRpcUrl extends RpcUrl {
  readonly variable?: string;
}

/** A network of the config file; the optional fields are kept as the file gives them (as in OpenZeppelin Relayer). */
export interface CatalogueNetwork {
  readonly type: NetworkType;
  readonly network: string;
  readonly rpc_urls: readonly CatalogueRpcUrl[];
  readonly chain_id?: number;
  /** Stellar: the network passphrase that transactions are signed for. */
  readonly passphrase?: string;
  readonly horizon_url?: string;
  readonly gas_price_cache?: Readonly<Record<string, unknown>>;
  /** EVM: the reference system's pending `status_check` block (PR #847), scalar values as written. */
  readonly status_check?: Readonly<Record<string, unknown>>;
  readonly is_testnet: boolean;
  readonly symbol?: string;
  readonly explorer_urls?: readonly string[];
  readonly average_blocktime_ms?: number;
  readonly required_confirmations?: number;
  readonly features?: readonly string[];
  readonly tags?: readonly string[];
}

/** A network's id in the API (docs/reference/networks-and-signers.md#4-networks): `evm:sepolia`. */
export function networkId(type: NetworkType, name: string): string {
  return `${type}:${name}`.toLowerCase();
}

/** `plain`: a raw key in the config (or the environment); `local`: an Ethereum v3 keystore file. */
export const SIGNER_TYPES = ['plain', 'local'] as const;
export type SignerType = (typeof SIGNER_TYPES)[number];

/** Signer ids share the relayer id alphabet and length (docs/reference/relayers.md#1-create). */
export const SIGNER_ID_PATTERN = /^[A-Za-z0-9_-]{1,36}$/;

export type SignerAddresses = Readonly<Partial<Record<NetworkType, string>>>;

/** A file signer whose key a key service holds (docs/reference/kms-signers.md): resolved at load. */
export interface HostedSignerView {
  readonly type: string;
  /** Its non-secret config fields. */
  readonly config: Readonly<Record<string, unknown>>;
  readonly addresses: SignerAddresses;
}

/** Given by the signers feature; `resolve` rejects with a message naming no secret. */
export interface HostedSignerResolver {
  /** The signer types it resolves. */
  readonly types: readonly string[];
  resolve(id: string, type: string, config: unknown): Promise<HostedSignerView>;
}

/** What may be shown of a signer: never its key material. */
export interface SignerSummary {
  readonly id: string;
  readonly type: SignerType;
  readonly addresses: SignerAddresses;
  readonly hosted?: HostedSignerView;
}

/** A signer asked for a network type: its address, or why it has none. */
export type SignerForNetwork =
  | { readonly kind: 'found'; readonly address: string }
  | { readonly kind: 'unknown' }
  /** `signsFor`: the network types the signer's key can sign for (never the one asked). */
  | { readonly kind: 'unsuitable'; readonly signsFor: readonly NetworkType[] };
