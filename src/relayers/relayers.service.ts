import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Catalogue } from '../catalogue/catalogue';
import type { NetworkType } from '../catalogue/catalogue.types';
import {
  ConflictError,
  NotFoundError,
  ServiceUnavailableError,
  ValidationError,
} from '../common/errors/domain-errors';
import { isForeignKeyViolation, isUniqueViolation } from '../common/errors/database-errors';
import { Page, PageQueryDto } from '../common/http/page';
import { isMaskedFormOf } from '../common/security/url-masking';
import { checkUrl } from '../common/security/url-policy';
import { validationMessage } from '../common/validation/validation.pipe';
import { isPossibleId } from '../common/validation/field-rules';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { NotificationsRepository } from '../notifications/notifications.repository';
import { CreateRelayerDto, RelayerResponse, RpcConfigDto, UpdateRelayerDto } from './dto/relayer.dto';
import { mergePolicies, validatePolicies, type Policies } from './policies/policy-validation';
import { fromJsonColumn, toJsonColumn, toRelayerResponse } from './relayer.mapper';
import { RelayerEntity, type StoredRpcUrl } from './relayer.entity';
import { RelayersRepository } from './relayers.repository';

const DEFAULT_RPC_WEIGHT = 100;
const MAX_UPDATE_ATTEMPTS = 200;

export const relayerNotFound = (id: string) => new NotFoundError(`Relayer with ID ${id} not found`);
const duplicateRelayer = () => new ConflictError('Relayer with this ID already exists');

@Injectable()
export class RelayersService {
  constructor(
    private readonly relayers: RelayersRepository,
    private readonly notifications: NotificationsRepository,
    private readonly catalogue: Catalogue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(dto: CreateRelayerDto): Promise<RelayerResponse> {
    const id = dto.id ?? randomUUID();
    const type = dto.network_type;
    const policies = this.validPolicies(type, dto.policies ?? null);
    const rpcUrls = this.validRpcUrls(dto.custom_rpc_urls ?? null, null);
    if (!this.catalogue.findNetwork(type, dto.network)) {
      throw new ValidationError(`Network '${dto.network}' not found for network type '${type}'`);
    }
    if (!this.catalogue.hasSigner(dto.signer_id))
      throw new ValidationError(`Signer with ID ${dto.signer_id} not found`);
    if (!this.catalogue.signerSuits(dto.signer_id, type)) {
      throw new ValidationError(`Signer with ID ${dto.signer_id} has no key for network type '${type}'`);
    }
    if (dto.notification_id != null) await this.assertNotificationExists(dto.notification_id);
    if (await this.relayers.existsById(id)) throw duplicateRelayer();
    await this.assertSignerFreeOnNetwork(type, dto.network, dto.signer_id);

    const now = new Date();
    const entity = Object.assign(new RelayerEntity(), {
      id,
      name: dto.name,
      network: dto.network,
      networkType: type,
      address: this.catalogue.signerAddress(dto.signer_id, type),
      signerId: dto.signer_id,
      notificationId: dto.notification_id ?? null,
      paused: dto.paused,
      systemDisabled: false,
      disabledReason: null,
      customRpcUrls: toJsonColumn(rpcUrls),
      policies: toJsonColumn(policies),
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
    try {
      await this.relayers.insert(entity);
    } catch (error) {
      // A racing request won between the checks above and this insert: say which rule it broke.
      if (isUniqueViolation(error)) {
        if (await this.relayers.existsById(id)) throw duplicateRelayer();
        await this.assertSignerFreeOnNetwork(type, dto.network, dto.signer_id);
      }
      if (isForeignKeyViolation(error) && dto.notification_id != null) {
        throw new ValidationError(`Notification with ID ${dto.notification_id} not found`);
      }
      throw error;
    }
    return toRelayerResponse(entity);
  }

  /**
   * JSON merge patch, validated as a whole after merging, written only if the relayer did not
   * change since it was read; otherwise read, merge and validate again (optimistic locking).
   */
  async update(id: string, dto: UpdateRelayerDto): Promise<RelayerResponse> {
    if (dto.notification_id != null) {
      if (!isPossibleId(id) || !(await this.relayers.existsById(id))) throw relayerNotFound(id);
      await this.assertNotificationExists(dto.notification_id);
    }
    for (let attempt = 0; attempt < MAX_UPDATE_ATTEMPTS; attempt++) {
      const current = isPossibleId(id) ? await this.relayers.findById(id) : null;
      if (!current) throw relayerNotFound(id);
      const next = this.merge(current, dto);
      if (next === current) return toRelayerResponse(current);
      const changes = {
        name: next.name,
        paused: next.paused,
        notificationId: next.notificationId,
        customRpcUrls: next.customRpcUrls,
        policies: next.policies,
        updatedAt: new Date(),
      };
      let written: boolean;
      try {
        written = await this.relayers.updateIfVersion(id, current.version, changes);
      } catch (error) {
        if (isForeignKeyViolation(error))
          throw new ValidationError(`Notification with ID ${dto.notification_id} not found`);
        throw error;
      }
      if (written) return toRelayerResponse({ ...current, ...changes, version: current.version + 1 });
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 * attempt)));
    }
    throw new ServiceUnavailableError('Service Unavailable: the relayer is being changed too often, retry');
  }

  async get(id: string): Promise<RelayerResponse> {
    const entity = isPossibleId(id) ? await this.relayers.findById(id) : null;
    if (!entity) throw relayerNotFound(id);
    return toRelayerResponse(entity);
  }

  async list(query: PageQueryDto): Promise<Page<RelayerResponse>> {
    const { items, total } = await this.relayers.findPage(query.offset, query.per_page);
    return new Page(items.map(toRelayerResponse), query, total);
  }

  async remove(id: string): Promise<string> {
    if (!isPossibleId(id) || !(await this.relayers.deleteById(id))) throw relayerNotFound(id);
    return 'Relayer deleted successfully';
  }

  /** The relayer after applying the patch; the same object when nothing changes. */
  private merge(current: RelayerEntity, dto: UpdateRelayerDto): RelayerEntity {
    const next: RelayerEntity = { ...current };
    let changed = false;
    if (dto.name !== undefined && dto.name !== current.name) {
      next.name = dto.name;
      changed = true;
    }
    if (dto.paused !== undefined && dto.paused !== current.paused) {
      next.paused = dto.paused;
      changed = true;
    }
    if (dto.notification_id !== undefined && dto.notification_id !== current.notificationId) {
      next.notificationId = dto.notification_id;
      changed = true;
    }
    if (dto.custom_rpc_urls !== undefined) {
      const stored = fromJsonColumn<StoredRpcUrl[]>(current.customRpcUrls);
      next.customRpcUrls = toJsonColumn(this.validRpcUrls(dto.custom_rpc_urls, stored));
      changed ||= next.customRpcUrls !== current.customRpcUrls;
    }
    if (dto.policies !== undefined) {
      const stored = fromJsonColumn<Policies>(current.policies);
      const merged = mergePolicies(stored, dto.policies);
      next.policies = toJsonColumn(this.validPolicies(current.networkType, merged));
      changed ||= next.policies !== current.policies;
    }
    return changed ? next : current;
  }

  /** Validates a whole policy object for the network type; Solana always carries its default. */
  private validPolicies(type: NetworkType, raw: unknown): Policies | null {
    if (raw === null && type !== 'solana') return null;
    const result = validatePolicies(type, raw ?? {});
    if (!result.ok) throw new ValidationError(validationMessage(result.errors));
    return result.policies;
  }

  /**
   * Applies the RPC URL policy to each entry. A masked URL sent back unchanged (as GET showed it)
   * keeps the stored URL at the same position.
   */
  private validRpcUrls(given: RpcConfigDto[] | null, stored: StoredRpcUrl[] | null): StoredRpcUrl[] | null {
    if (given === null) return null;
    const errors: string[] = [];
    const urls = given.map((rpc, i) => {
      const kept = stored?.[i] && isMaskedFormOf(rpc.url, stored[i].url) ? stored[i].url : null;
      const url = kept ?? rpc.url;
      if (kept === null) {
        const reason = checkUrl(url, this.config.rpcUrlPolicy);
        if (reason !== null) errors.push(`custom_rpc_urls[${i}].url ${reason}`);
      }
      return { url, weight: rpc.weight ?? DEFAULT_RPC_WEIGHT };
    });
    if (errors.length > 0) throw new ValidationError(validationMessage(errors));
    return urls;
  }

  private async assertNotificationExists(notificationId: string): Promise<void> {
    if (!(await this.notifications.existsById(notificationId))) {
      throw new ValidationError(`Notification with ID ${notificationId} not found`);
    }
  }

  private async assertSignerFreeOnNetwork(
    type: NetworkType,
    network: string,
    signerId: string,
  ): Promise<void> {
    const user = await this.relayers.findIdBySignerOnNetwork(type, network, signerId);
    if (user !== null) {
      throw new ValidationError(
        `Signer with ID ${signerId} is already used by relayer ${user} on ${type} network '${network}'`,
      );
    }
  }
}
