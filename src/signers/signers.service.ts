import { Inject, Injectable, type INestApplicationContext } from '@nestjs/common';
import { ReferenceRegistry, type ReferenceUsers } from '../common/references/reference-registry';
import { randomUUID } from 'node:crypto';
import { RelayerScope } from '../common/auth/relayer-scope';
import { ConflictError, ForbiddenError, ServiceUnavailableError } from '../common/errors/domain-errors';
import { Page, PageQueryDto } from '../common/http/page.dto';
import type { FieldCipher } from '../common/security/field-cipher';
import { encryptKeystore } from '../common/security/keystore';
import { ResourceWrites } from '../database/resource-writes';
import { Transactions, type ReadTx } from '../database/transactions';
import {
  addressesOfKey,
  Catalogue,
  fileSignerKeystore,
  NETWORK_TYPES,
  type NetworkType,
  type SignerForNetwork,
  type SignerSummary,
} from '../catalogue';
import { SignerResponse } from './dto/signer.dto';
import type { NewSigner } from './signers.validation';
import { SIGNER_KEY_CIPHER } from './signer-key-cipher';
import { SignerEntity } from './signer.entity';
import { toCatalogueSignerResponse, toStoredSignerResponse } from './signer.mapper';
import { SignersRepository } from './signers.repository';
import { signerNotFound, duplicateSigner } from './signers.errors';
import { KeyServices } from './key-services/key-services';

/**
 * Signers: those of the catalogue file (read-only, in memory) and those created through the API
 * (rows, key encrypted). Lists show the file's first, in file order, then the API's by creation.
 * A request's key sees only the signers of its scope, of the file as of the API
 * (docs/reference/keys-and-audit.md#3-relayer-scope): the repository filters the rows, `fileSigner`
 * the file's; one outside is missing to it.
 */
@Injectable()
export class SignersService {
  /** Who uses a signer: one in use cannot be deleted (docs/reference/networks-and-signers.md#3-signers). */
  private readonly users = new ReferenceRegistry();
  private readonly writes: ResourceWrites<SignerEntity, SignerResponse>;

  /** @internal Nest injects it. */
  constructor(
    private readonly catalogue: Catalogue,
    private readonly signers: SignersRepository,
    transactions: Transactions,
    @Inject(SIGNER_KEY_CIPHER) private readonly cipher: FieldCipher | null,
    private readonly keyServices: KeyServices,
  ) {
    this.writes = new ResourceWrites(transactions, {
      name: 'signer',
      notFound: signerNotFound,
      // To delete it: locked until the transaction ends, so that no relayer starts using it (holdForUse).
      read: async (id, tx) =>
        !tx || (await this.signers.lock(id, 'update', tx)) ? this.signers.findById(id, tx) : null,
      toResponse: toStoredSignerResponse,
      users: this.users,
      inUse: (id, uses) => new ConflictError(`Signer ${id} is used by ${uses.join('; ')}`),
    });
  }

  async list(query: PageQueryDto): Promise<Page<SignerResponse>> {
    const scope = RelayerScope.current();
    // A scoped key's list of the file's signers is filtered here; every key's page of it is in file order.
    const file =
      scope === null ? null : this.catalogue.listSigners().filter((signer) => scope.covers(signer.id));
    const fileCount = file?.length ?? this.catalogue.signerCount;
    const end = query.offset + query.per_page;
    const fromFile =
      query.offset >= fileCount
        ? []
        : (file?.slice(query.offset, end) ?? this.catalogue.listSignerPage(query.offset, query.per_page));
    const stored = await this.signers.findPage(
      Math.max(0, query.offset - fileCount),
      query.per_page - fromFile.length,
    );
    const items = [...fromFile.map(toCatalogueSignerResponse), ...stored.items.map(toStoredSignerResponse)];
    return new Page(items, query, fileCount + stored.total);
  }

  async get(id: string): Promise<SignerResponse> {
    const fromFile = this.fileSigner(id);
    if (fromFile) return toCatalogueSignerResponse(fromFile);
    const row = await this.signers.findById(id);
    if (!row) throw signerNotFound(id);
    return toStoredSignerResponse(row);
  }

  /** A hosted signer's addresses come from its config or its key service before anything is stored. */
  async create(input: NewSigner): Promise<SignerResponse> {
    if (this.cipher === null) {
      throw new ServiceUnavailableError(
        'Service Unavailable: STORAGE_ENCRYPTION_KEY is not set, so signer keys cannot be stored',
      );
    }
    const id = input.id ?? randomUUID();
    // Outside the key's scope: 403 before any conflict, and before a key service is called.
    if (!RelayerScope.admits(id)) throw new ForbiddenError();
    if (this.catalogue.hasSigner(id) || (await this.signers.findById(id))) throw duplicateSigner();
    const { hosted, key } = input;
    const entity = Object.assign(new SignerEntity(), {
      id,
      createdAt: new Date(),
      type: hosted ? hosted.type : 'plain',
      config: hosted ? hosted.shown : null,
      encryptedKey: this.cipher.encrypt(
        hosted ? JSON.stringify(hosted.secrets) : Buffer.from(key).toString('hex'),
        id,
      ),
      addresses: hosted ? await this.keyServices.addresses(id, hosted) : addressesOfKey(key),
    });
    key?.fill(0);
    const created = await this.writes.create(async (tx) => {
      if (!(await this.signers.insertNew(entity, tx))) throw duplicateSigner();
      return entity;
    });
    return created.data;
  }

  registerUsers(users: ReferenceUsers): void {
    this.users.register(users);
  }

  /** The file's signers are read-only; one that relayers use stays (docs/reference/networks-and-signers.md#3-signers). */
  async remove(id: string): Promise<string> {
    if (this.fileSigner(id)) {
      throw new ConflictError(`Signer ${id} is defined in the configuration file`);
    }
    await this.writes.remove(id, async (_, __, tx) => {
      await this.signers.delete(id, tx);
      return true;
    });
    return 'Signer deleted successfully';
  }

  /** `unknown` for a signer outside the request's scope, as for a missing one: a relayer cannot name it. */
  async addressFor(signerId: string, type: NetworkType): Promise<SignerForNetwork> {
    const inFile = RelayerScope.admits(signerId) ? this.catalogue.signerFor(signerId, type) : undefined;
    if (inFile !== undefined) return inFile;
    const row = await this.signers.findById(signerId);
    if (!row) return { kind: 'unknown' };
    const address = row.addresses[type];
    if (address !== undefined) return { kind: 'found', address };
    return { kind: 'unsuitable', signsFor: NETWORK_TYPES.filter((network) => row.addresses[network]) };
  }

  /** A signer of the file that the request's key may see. */
  private fileSigner(id: string): SignerSummary | undefined {
    return RelayerScope.admits(id) ? this.catalogue.findSigner(id) : undefined;
  }

  /**
   * In a transaction that makes a resource use the signer: false when it is gone. Until that
   * transaction ends, the signer cannot be deleted.
   */
  async holdForUse(signerId: string, tx: ReadTx): Promise<boolean> {
    return this.catalogue.hasSigner(signerId) || this.signers.lock(signerId, 'share', tx);
  }
}

/**
 * A key-holding signer's key, of the file or given through the API, as an encrypted Web3 Secret
 * Storage keystore (`npm run config -- export`); undefined for a hosted or unknown signer. A
 * function of the application context rather than a method of SignersService, which extensions
 * get (src/index.ts): no key leaves the service through its public API.
 */
export async function signerKeystore(
  context: Pick<INestApplicationContext, 'get'>,
  id: string,
  passphrase: string,
  scryptN?: number,
): Promise<string | undefined> {
  const catalogue = context.get(Catalogue);
  if (catalogue.hasSigner(id)) return fileSignerKeystore(catalogue, id, passphrase, scryptN);
  const row = await context.get(SignersRepository).findById(id);
  if (!row || row.type !== 'plain') return undefined;
  const cipher = context.get<symbol, FieldCipher | null>(SIGNER_KEY_CIPHER);
  if (!cipher) throw new Error(`STORAGE_ENCRYPTION_KEY is needed to read the key of signer ${id}`);
  const key = Buffer.from(cipher.decrypt(row.encryptedKey, id), 'hex');
  try {
    return await encryptKeystore(key, passphrase, scryptN);
  } finally {
    key.fill(0);
  }
}
