import { inspect } from 'node:util';
import { encryptKeystore } from '../common/security/keystore';
import { KEY_KIND_BY_SIGNER_TYPE, deriveAddress, keyKindSuits } from './address-derivation';
import {
  NETWORK_TYPES,
  networkId,
  type CatalogueNetwork,
  type HostedSignerView,
  type NetworkType,
  type SignerForNetwork,
  type SignerSummary,
  type SignerType,
} from './catalogue.types';

const REDACTED = '[redacted]';

/** The bytes of a key, for this module only (set by SecretKey's static block). */
let revealKey: (key: SecretKey) => Uint8Array;
/** A signer's record, for this module only (set by Catalogue's static block). */
let recordOf: (catalogue: Catalogue, id: string) => SignerRecord | undefined;

/** Opaque outside this module (only `revealKey`, not exported, reads the bytes); printed as `[redacted]`. */
export class SecretKey {
  readonly #bytes: Uint8Array;

  static {
    revealKey = (key) => key.#bytes;
  }

  constructor(bytes: Uint8Array) {
    this.#bytes = Uint8Array.from(bytes);
  }

  toJSON(): string {
    return REDACTED;
  }

  toString(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }
}

export interface CatalogueSigner {
  readonly id: string;
  readonly type: SignerType;
  /** Empty for a hosted signer, whose addresses come with it. */
  readonly key: SecretKey;
  readonly hosted?: HostedSignerView;
}

interface SignerRecord extends CatalogueSigner {
  /** Filled on first use: deriving 20,000 keys at start would make start-up slow. */
  readonly addresses: Partial<Record<NetworkType, string>>;
}

export class UnknownSignerError extends Error {
  constructor(readonly signerId: string) {
    super(`Signer with ID ${signerId} not found`);
    this.name = 'UnknownSignerError';
  }
}

/** The networks and signers read from CONFIG_FILE. Keys never leave this class. */
export class Catalogue {
  /** By API id (`evm:sepolia`): names differing only in case are one network. */
  readonly #networks = new Map<string, CatalogueNetwork>();
  readonly #signers = new Map<string, SignerRecord>();

  static {
    recordOf = (catalogue, id) => catalogue.#signers.get(id);
  }

  /**
   * Expects validated input (see `loadCatalogue`); a duplicate network or signer is a programming error.
   * @internal The service makes the one catalogue.
   */
  constructor(input: { networks: readonly CatalogueNetwork[]; signers: readonly CatalogueSigner[] }) {
    for (const network of input.networks) this.#addNetwork(network);
    for (const signer of input.signers) this.#addSigner(signer);
  }

  get networkCount(): number {
    return this.#networks.size;
  }

  get signerCount(): number {
    return this.#signers.size;
  }

  findNetwork(type: NetworkType, name: string): CatalogueNetwork | undefined {
    const network = this.#networks.get(networkId(type, name));
    return network?.type === type && network.network === name ? network : undefined;
  }

  /** By API id, exactly: `<type>:<name>` in lower case (docs/reference/running.md#37-ids-compare-exactly). */
  findNetworkById(id: string): CatalogueNetwork | undefined {
    return this.#networks.get(id);
  }

  listNetworks(type?: NetworkType): CatalogueNetwork[] {
    const networks = [...this.#networks.values()];
    return type === undefined ? networks : networks.filter((network) => network.type === type);
  }

  findSigner(id: string): SignerSummary | undefined {
    const signer = this.#signers.get(id);
    return signer && this.#summary(signer);
  }

  hasSigner(id: string): boolean {
    return this.#signers.has(id);
  }

  listSigners(): SignerSummary[] {
    return this.listSignerPage(0, this.#signers.size);
  }

  /** One page of signers in config order; derives only that page's addresses. */
  listSignerPage(offset: number, limit: number): SignerSummary[] {
    return [...this.#signers.values()].slice(offset, offset + limit).map((signer) => this.#summary(signer));
  }

  signerSuits(signerId: string, type: NetworkType): boolean {
    const signer = this.#signers.get(signerId);
    if (signer?.hosted) return signer.hosted.addresses[type] !== undefined;
    return signer !== undefined && keyKindSuits(KEY_KIND_BY_SIGNER_TYPE[signer.type], type);
  }

  /** A signer of the file for `type`; undefined when the file has no such signer. */
  signerFor(signerId: string, type: NetworkType): SignerForNetwork | undefined {
    if (!this.#signers.has(signerId)) return undefined;
    return this.signerSuits(signerId, type)
      ? { kind: 'found', address: this.signerAddress(signerId, type) }
      : {
          kind: 'unsuitable',
          signsFor: NETWORK_TYPES.filter((network) => this.signerSuits(signerId, network)),
        };
  }

  /** Throws when the signer is unknown or does not suit `type`. */
  signerAddress(signerId: string, type: NetworkType): string {
    const signer = this.#signers.get(signerId);
    if (signer === undefined) throw new UnknownSignerError(signerId);
    if (!this.signerSuits(signerId, type)) {
      throw new Error(`Signer ${signerId} has no key for network type '${type}'`);
    }
    return this.#addressOf(signer, type);
  }

  [inspect.custom](): string {
    return `Catalogue { networks: ${this.networkCount}, signers: ${this.signerCount} }`;
  }

  toJSON(): { networks: CatalogueNetwork[]; signers: string[] } {
    return { networks: this.listNetworks(), signers: [...this.#signers.keys()] };
  }

  #addNetwork(network: CatalogueNetwork): void {
    const id = networkId(network.type, network.network);
    if (this.#networks.has(id)) {
      throw new Error(`Duplicate network '${network.network}' for network type '${network.type}'`);
    }
    const frozen = Object.freeze({
      ...network,
      rpc_urls: Object.freeze(network.rpc_urls.map((rpc) => Object.freeze({ ...rpc }))),
    });
    this.#networks.set(id, frozen);
  }

  #addSigner(signer: CatalogueSigner): void {
    if (this.#signers.has(signer.id)) throw new Error(`Duplicate signer '${signer.id}'`);
    const { id, type, key, hosted } = signer;
    this.#signers.set(id, { id, type, key, hosted, addresses: { ...hosted?.addresses } });
  }

  #summary(signer: SignerRecord): SignerSummary {
    const { id, type, hosted } = signer;
    const suited = NETWORK_TYPES.filter((network) => this.signerSuits(id, network));
    const addresses = Object.fromEntries(
      suited.map((network) => [network, this.#addressOf(signer, network)]),
    );
    return { id, type, addresses, hosted };
  }

  #addressOf(signer: SignerRecord, type: NetworkType): string {
    return (signer.addresses[type] ??= deriveAddress(type, revealKey(signer.key)));
  }
}

/**
 * A file signer's key as an encrypted keystore (`npm run config -- export`): the key leaves the
 * catalogue only encrypted. Not a method, so not part of the public API (src/index.ts). Undefined
 * for an unknown or hosted signer.
 */
export async function fileSignerKeystore(
  catalogue: Catalogue,
  signerId: string,
  passphrase: string,
  scryptN?: number,
): Promise<string | undefined> {
  const signer = recordOf(catalogue, signerId);
  if (signer === undefined || signer.hosted) return undefined;
  return encryptKeystore(revealKey(signer.key), passphrase, scryptN);
}
