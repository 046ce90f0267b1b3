import { Inject, Injectable } from '@nestjs/common';
import { isValidSecp256k1PrivateKey } from '../catalogue';
import { idRequiredInScope, RelayerScope } from '../common/auth/relayer-scope';
import { isPlainObject } from '../common/validation/field-rules';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import type { BodyRules, Checked, DtoCheck } from '../common/validation/dto-validation.pipe';
import { CreateSignerDto } from './dto/signer.dto';
import {
  ambientCredentialProblems,
  isHostedSignerType,
  parseHostedSignerConfig,
  type HostedSignerConfig,
} from './key-services/hosted-signer-config';

const HEX_KEY = /^(?:0x)?[0-9a-fA-F]{64}$/;
const KEY_RULE = 'config.key must be 32 bytes as 64 hex characters (0x allowed)';
const KEY_VALUE_RULE = 'config.key must be a valid secp256k1 private key: not zero and below the curve order';

/** The caller zeroes `key` after use. */
export type NewSigner =
  | { readonly id?: string | null; readonly key: Uint8Array; readonly hosted?: undefined }
  | { readonly id?: string | null; readonly hosted: HostedSignerConfig; readonly key?: undefined };

/**
 * The API's signers (the configuration file's are read by FileHostedSigners): here, and only here,
 * a signer may not use the service's own cloud identity (docs/reference/hardening.md#2-key-services).
 */
@Injectable()
export class SignerCreateRules implements BodyRules<CreateSignerDto, NewSigner> {
  readonly dto = CreateSignerDto;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  check({ value: dto, failed }: DtoCheck<CreateSignerDto>): Checked<NewSigner> {
    const typed = !failed.has('type');
    const configured = !failed.has('config');
    const problems: string[] = [];
    // A generated id would fall outside the key's signers (docs/reference/keys-and-audit.md#3-relayer-scope).
    if (dto.id == null && RelayerScope.current() !== null) problems.push(idRequiredInScope('signers'));
    if (typed && isHostedSignerType(dto.type)) {
      const { vaultHosts, ambientCredentialsInApi } = this.config.keyServices;
      const parsed = configured ? parseHostedSignerConfig(dto.type, dto.config, { vaultHosts }) : null;
      problems.push(...(parsed?.problems ?? []));
      const hosted = parsed?.config;
      const ambient = hosted && !ambientCredentialsInApi ? ambientCredentialProblems(hosted) : [];
      problems.push(...ambient);
      if (hosted && ambient.length === 0) return { value: { id: dto.id, hosted }, problems };
    } else if (typed && dto.type !== 'plain') problems.push(`Signer type '${dto.type}' is not supported`);
    const plain = typed && configured && dto.type === 'plain' ? parsePlainConfig(dto.config) : null;
    problems.push(...(plain?.problems ?? []));
    return { value: { id: dto.id, key: plain?.value ?? new Uint8Array() }, problems };
  }
}

/** `{"key": "<64 hex>"}` and nothing else; the problems never quote the key. */
function parsePlainConfig(config: Record<string, unknown>): Checked<Uint8Array | null> {
  if (!isPlainObject(config)) return { value: null, problems: [] }; // refused by the DTO's @IsObject already
  const problems = Object.keys(config)
    .filter((field) => field !== 'key')
    .map((field) => `config.${field} is not an allowed field`);
  const text = config.key;
  const key =
    typeof text === 'string' && HEX_KEY.test(text)
      ? Uint8Array.from(Buffer.from(text.replace(/^0x/, ''), 'hex'))
      : null;
  if (key && isValidSecp256k1PrivateKey(key)) return { value: key, problems };
  return { value: null, problems: [...problems, key ? KEY_VALUE_RULE : KEY_RULE] };
}
