import { Inject, Injectable } from '@nestjs/common';
import { Catalogue, type NetworkType } from '../catalogue';
import { stringifyJson } from '../common/http/json';
import type { UrlPolicyOptions } from '../common/security/url-policy';
import { idRequiredInScope, RelayerScope } from '../common/auth/relayer-scope';
import { RESOURCE_ID_PATTERN } from '../common/validation/field-rules';
import { MAX_RPC_URLS, resolveRpcUrlList, type RpcUrl } from '../common/validation/rpc-url-list';
import type { RpcConfigDto } from '../common/validation/rpc-config.dto';
import { ValidationError } from '../common/errors/domain-errors';
import type { BodyRules, Checked, DtoCheck } from '../common/validation/dto-validation.pipe';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import { NotificationsService } from '../notifications';
import { SignersService } from '../signers';
import { CreateRelayerDto, UpdateRelayerDto } from './dto/relayer.dto';
import { mergePolicies, validatePolicies, type Policies } from './policies/policy-validation';
import { PATCHABLE_FIELDS, type PatchableField } from './relayer-events';
import type { RelayerEntity } from './relayer.entity';
import { RelayersRepository, type RelayerChanges } from './relayers.repository';
import { notificationMissing, signerCannotSign, unknownSigner } from './relayers.errors';

export const ID_REQUIRED_IN_SCOPE = idRequiredInScope('relayers');

/** A create body once every rule that needs no lock holds: policies normalised, URLs checked. */
export interface NewRelayer extends Omit<CreateRelayerDto, 'custom_rpc_urls' | 'policies'> {
  readonly custom_rpc_urls: RpcUrl[] | null;
  readonly policies: Policies | null;
  readonly address: string;
}

/** A PATCH body; an RPC URL item whose own rules failed is null (its problem is named already). */
type RelayerPatch = Omit<UpdateRelayerDto, 'custom_rpc_urls'> & {
  custom_rpc_urls?: ReadonlyArray<RpcConfigDto | null> | null;
};

/** POST /relayers (docs/reference/relayers.md#1-create): every problem named in one 400. */
@Injectable()
export class RelayerCreateRules implements BodyRules<CreateRelayerDto, NewRelayer> {
  readonly dto = CreateRelayerDto;

  constructor(
    private readonly catalogue: Catalogue,
    /** `config check` gives the file's signers alone (src/cli/config.ts). */
    @Inject(SignersService) private readonly signers: Pick<SignersService, 'addressFor'>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    /** `config check` judges the file alone: its relayers' notifications are created before them. */
    @Inject(NotificationsService) private readonly notifications: Pick<NotificationsService, 'exists'>,
  ) {}

  async check({ value: dto, failed }: DtoCheck<CreateRelayerDto>): Promise<Checked<NewRelayer>> {
    const type = failed.has('network_type') ? null : dto.network_type;
    const checked =
      type !== null && !failed.has('policies') ? checkPolicies(type, dto.policies ?? null) : null;
    const problems = [...(checked?.problems ?? [])];
    const policies = checked && checked.value;
    const list = checkableRpcUrls(dto.custom_rpc_urls, failed);
    const resolved = list && resolveRpcUrlList(list, [], this.config.rpcUrlPolicy, 'custom_rpc_urls');
    problems.push(...(resolved?.problems ?? []));
    const urls = resolved && resolved.urls;
    if (type !== null && !failed.has('network') && !this.catalogue.findNetwork(type, dto.network)) {
      problems.push(`Network '${dto.network}' not found for network type '${type}'`);
    }
    let address = '';
    if (!failed.has('signer_id')) {
      const signer = await this.signers.addressFor(dto.signer_id, type ?? 'evm');
      if (signer.kind === 'unknown') problems.push(unknownSigner(dto.signer_id));
      else if (type !== null && signer.kind === 'unsuitable') {
        problems.push(signerCannotSign(dto.signer_id, type, signer.signsFor));
      } else if (signer.kind === 'found') address = signer.address;
    }
    problems.push(...(await notificationProblems(this.notifications, dto.notification_id, failed)));
    // A generated id would fall outside the key's relayers (docs/reference/keys-and-audit.md#3-relayer-scope).
    if (dto.id == null && RelayerScope.current() !== null) problems.push(ID_REQUIRED_IN_SCOPE);
    return { value: { ...dto, custom_rpc_urls: urls, policies, address }, problems };
  }
}

/**
 * PATCH /relayers/{id} (docs/reference/relayers.md#2-update): every body is merged with the relayer as
 * read now, and the merge's problems named with the body's; the service merges again against each
 * version it writes to (mergeRelayerPatch).
 */
@Injectable()
export class RelayerPatchRules implements BodyRules<UpdateRelayerDto, UpdateRelayerDto> {
  readonly dto = UpdateRelayerDto;

  constructor(
    private readonly relayers: RelayersRepository,
    private readonly notifications: NotificationsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async check(
    { value, failed }: DtoCheck<UpdateRelayerDto>,
    params: Readonly<Record<string, unknown>>,
  ): Promise<Checked<UpdateRelayerDto>> {
    const id = params.relayer_id;
    // An unknown relayer is the service's 404, once the body is valid.
    if (typeof id !== 'string' || !RESOURCE_ID_PATTERN.test(id)) return { value, problems: [] };
    const current = await this.relayers.findById(id);
    if (!current) return { value, problems: [] };
    const passed: RelayerPatch = Object.fromEntries(
      Object.entries(value).filter(([key]) => !failed.has(key)),
    );
    if (value.custom_rpc_urls !== undefined) {
      passed.custom_rpc_urls = checkableRpcUrls(value.custom_rpc_urls, failed);
    }
    return {
      value,
      problems: [
        ...(await notificationProblems(this.notifications, value.notification_id, failed)),
        ...mergeRelayer(current, passed, this.config.rpcUrlPolicy).problems,
      ],
    };
  }
}

/** A notification named must exist (the insert's foreign key decides, if it goes meanwhile). */
async function notificationProblems(
  notifications: Pick<NotificationsService, 'exists'>,
  id: string | null | undefined,
  failed: ReadonlySet<string>,
): Promise<string[]> {
  if (id == null || failed.has('notification_id') || (await notifications.exists(id))) return [];
  return [notificationMissing(id)];
}

/**
 * The changes a valid patch makes to the version the service writes to (null: none). The validation
 * stage merged it with the version it read; a write in between can make the same body fail here, with
 * the 400 it would have had if that write had come first.
 */
export function mergeRelayerPatch(
  current: RelayerEntity,
  patch: UpdateRelayerDto,
  rpcUrlPolicy: UrlPolicyOptions,
): RelayerChanges | null {
  const { value, problems } = mergeRelayer(current, patch, rpcUrlPolicy);
  if (problems.length > 0) throw new ValidationError([...problems]);
  return value;
}

/** The changes a patch makes to the relayer (null when it changes nothing). */
function mergeRelayer(
  current: RelayerEntity,
  patch: RelayerPatch,
  rpcUrlPolicy: UrlPolicyOptions,
): Checked<RelayerChanges | null> {
  const urls = patch.custom_rpc_urls;
  const resolved =
    urls && resolveRpcUrlList(urls, current.customRpcUrls ?? [], rpcUrlPolicy, 'custom_rpc_urls');
  const policies =
    patch.policies === undefined
      ? null
      : checkPolicies(current.networkType, mergePolicies(current.policies, patch.policies));
  const next: RelayerChanges = {
    name: patch.name ?? current.name,
    paused: patch.paused ?? current.paused,
    notificationId: patch.notification_id !== undefined ? patch.notification_id : current.notificationId,
    customRpcUrls: urls === undefined ? current.customRpcUrls : (resolved?.urls ?? null),
    policies: policies === null ? current.policies : policies.value,
    updatedAt: new Date(),
  };
  return {
    value: changedFields(current, next).length > 0 ? next : null,
    problems: [...(resolved?.problems ?? []), ...(policies?.problems ?? [])],
  };
}

export function changedFields(current: RelayerEntity, next: RelayerChanges): PatchableField[] {
  const differs: Record<PatchableField, boolean> = {
    custom_rpc_urls: stringifyJson(next.customRpcUrls) !== stringifyJson(current.customRpcUrls),
    name: next.name !== current.name,
    notification_id: next.notificationId !== current.notificationId,
    paused: next.paused !== current.paused,
    policies: stringifyJson(next.policies) !== stringifyJson(current.policies),
  };
  return PATCHABLE_FIELDS.filter((field) => differs[field]);
}

/** The RPC URL items the URL policy can judge: a bad weight must not hide a bad URL. */
function checkableRpcUrls(list: unknown, failed: ReadonlySet<string>): Array<RpcConfigDto | null> | null {
  if (!Array.isArray(list)) return null;
  if (!failed.has('custom_rpc_urls')) return list as RpcConfigDto[];
  if (list.length > MAX_RPC_URLS) return null;
  return list.map((rpc: unknown, i) =>
    typeof (rpc as Partial<RpcConfigDto> | null)?.url === 'string' && !failed.has(`custom_rpc_urls[${i}].url`)
      ? (rpc as RpcConfigDto)
      : null,
  );
}

/** A whole policy object for the network type, normalised; Solana always carries its default. */
function checkPolicies(type: NetworkType, raw: unknown): Checked<Policies | null> {
  if (raw === null && type !== 'solana') return { value: null, problems: [] };
  return validatePolicies(type, raw ?? {});
}
