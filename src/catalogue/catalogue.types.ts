export const NETWORK_TYPES = ['evm', 'solana', 'stellar'] as const;
export type NetworkType = (typeof NETWORK_TYPES)[number];

export function isNetworkType(value: unknown): value is NetworkType {
  return typeof value === 'string' && (NETWORK_TYPES as readonly string[]).includes(value);
}

/** A network of the catalogue, as read from the config file (immutable once loaded). */
export interface CatalogueNetwork {
  readonly type: NetworkType;
  readonly network: string;
  readonly rpc_urls: readonly string[];
  /** EVM only. */
  readonly chain_id?: number;
  /** Stellar only: the network passphrase that transactions are signed for. */
  readonly passphrase?: string;
  readonly is_testnet: boolean;
}

export const SIGNER_TYPES = ['plain', 'local'] as const;
/** `plain`: a raw key in the config (or the environment); `local`: an Ethereum v3 keystore file. */
export type SignerType = (typeof SIGNER_TYPES)[number];

export function isSignerType(value: unknown): value is SignerType {
  return typeof value === 'string' && (SIGNER_TYPES as readonly string[]).includes(value);
}

/** Signer ids share the relayer id alphabet and length (contract 6.1). */
export const SIGNER_ID_PATTERN = /^[A-Za-z0-9_-]{1,36}$/;

export type SignerAddresses = Readonly<Partial<Record<NetworkType, string>>>;

/** What may be shown of a signer: never its key material. */
export interface SignerSummary {
  readonly id: string;
  readonly type: SignerType;
  /** One address per network type that the signer's key suits. */
  readonly addresses: SignerAddresses;
}
