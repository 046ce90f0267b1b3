import { Keypair, StrKey, xdr } from '@stellar/stellar-sdk';
import { JsonRpcServer, type MethodOutcome } from './json-rpc-server';

export const TESTNET_PASSPHRASE = 'Test SDF Network ; September 2015';

export interface StellarAccount {
  /** Native balance in stroops. */
  balance: bigint;
  /** The account's sequence number (the last one used). */
  sequence: bigint;
}

const MAX_KEYS = 200;

/**
 * A Stellar RPC node for the tests, answering as
 * https://developers.stellar.org/docs/data/apis/rpc/api-reference/methods says:
 * - `getNetwork`: `{friendbotUrl, passphrase, protocolVersion}`;
 * - `getLedgerEntries({keys})`: `{entries: [{key, xdr, lastModifiedLedgerSeq}], latestLedger}`, where
 *   `key` is the base64 `LedgerKey` asked for and `xdr` the base64 `LedgerEntryData`, here a real
 *   `AccountEntry` built with the SDK's XDR types; keys of accounts it does not know are left out
 *   (`entries: []` when none is found); a key that is not LedgerKey XDR is `-32602`.
 * Other methods: `-32601 Method not found`.
 */
export class StellarRpc {
  readonly rpc: JsonRpcServer;
  /** The passphrase getNetwork answers. */
  passphrase = TESTNET_PASSPHRASE;
  private readonly accounts = new Map<string, StellarAccount & { lastModifiedLedgerSeq: number }>();
  private latestLedger = 1_200_000;

  constructor() {
    this.rpc = new JsonRpcServer({
      getNetwork: () => this.getNetwork(),
      getLedgerEntries: (params) => this.getLedgerEntries(params),
    });
  }

  async start(): Promise<this> {
    await this.rpc.start();
    return this;
  }

  url(path = '/'): string {
    return this.rpc.url(path);
  }

  /** Creates or changes an account (G… address): it exists from now on with this balance and sequence. */
  setAccount(address: string, account: StellarAccount): void {
    if (!StrKey.isValidEd25519PublicKey(address)) throw new Error(`not a Stellar account id: ${address}`);
    this.latestLedger += 1;
    this.accounts.set(address, { ...account, lastModifiedLedgerSeq: this.latestLedger });
  }

  /** The account no longer exists (merged, or never funded). */
  removeAccount(address: string): void {
    this.latestLedger += 1;
    this.accounts.delete(address);
  }

  /** Makes every request fail with this HTTP status (null: answer again). */
  setHttpStatus(status: number | null): void {
    this.rpc.httpStatus = status;
  }

  calls(method: 'getNetwork' | 'getLedgerEntries'): number {
    return this.rpc.callCount(method);
  }

  close(): Promise<void> {
    return this.rpc.close();
  }

  /** The account ledger entry as the network holds it: LedgerEntryData XDR, base64. */
  static accountEntryXdr(address: string, account: StellarAccount): string {
    const entry = new xdr.AccountEntry({
      accountId: Keypair.fromPublicKey(address).xdrAccountId(),
      balance: account.balance,
      seqNum: account.sequence,
      numSubEntries: 0,
      inflationDest: null,
      flags: 0,
      homeDomain: '',
      thresholds: new Uint8Array([1, 0, 0, 0]), // master weight 1, no thresholds
      signers: [],
      ext: xdr.AccountEntryExt.v0(),
    });
    return xdr.LedgerEntryData.account(entry).toXdr('base64');
  }

  private getNetwork(): MethodOutcome {
    return {
      result: {
        friendbotUrl: 'https://friendbot.stellar.org/',
        passphrase: this.passphrase,
        protocolVersion: 23,
      },
    };
  }

  private getLedgerEntries(params: unknown): MethodOutcome {
    const keys = (params as { keys?: unknown } | null)?.keys;
    if (!Array.isArray(keys) || keys.length === 0) {
      return { error: { code: -32602, message: 'key list must be non-empty' } };
    }
    if (keys.length > MAX_KEYS) {
      return {
        error: {
          code: -32602,
          message: `key count (${keys.length}) exceeds maximum supported (${MAX_KEYS})`,
        },
      };
    }
    const entries: { key: string; xdr: string; lastModifiedLedgerSeq: number }[] = [];
    for (const [index, key] of keys.entries()) {
      let ledgerKey: xdr.LedgerKey;
      try {
        if (typeof key !== 'string') throw new Error('not a string');
        ledgerKey = xdr.LedgerKey.fromXdr(key, 'base64');
      } catch {
        return {
          error: { code: -32602, message: `cannot unmarshal key value ${String(key)} at index ${index}` },
        };
      }
      if (ledgerKey.type !== 'account') continue;
      const accountId = ledgerKey.account.accountId;
      if (accountId.type !== 'publicKeyTypeEd25519') continue;
      const address = StrKey.encodeEd25519PublicKey(Buffer.from(accountId.ed25519.value));
      const account = this.accounts.get(address);
      if (!account) continue;
      entries.push({
        key: ledgerKey.toXdr('base64'),
        xdr: StellarRpc.accountEntryXdr(address, account),
        lastModifiedLedgerSeq: account.lastModifiedLedgerSeq,
      });
    }
    return { result: { entries, latestLedger: this.latestLedger } };
  }
}
