import { Injectable } from '@nestjs/common';
import { isCidr } from '../config/cidr';
import type { BodyRules, Checked, DtoCheck } from '../common/validation/dto-validation.pipe';
import { CreateApiKeyDto } from './dto/api-key.dto';

/**
 * POST /api-keys beyond the DTO: each element of `allowed_cidrs` named when it is no CIDR
 * (docs/reference/keys-and-audit.md#41-where-a-key-may-be-used-from).
 */
@Injectable()
export class ApiKeyCreateRules implements BodyRules<CreateApiKeyDto, CreateApiKeyDto> {
  readonly dto = CreateApiKeyDto;

  check({ value, failed }: DtoCheck<CreateApiKeyDto>): Checked<CreateApiKeyDto> {
    const cidrs = value.allowed_cidrs;
    if (failed.has('allowed_cidrs') || !Array.isArray(cidrs)) return { value, problems: [] };
    const problems = cidrs.flatMap((cidr: unknown, i) =>
      isCidr(cidr)
        ? []
        : [`allowed_cidrs[${i}] must be an IPv4 or IPv6 CIDR (10.0.0.0/8, 2001:db8::/32) or one address`],
    );
    return { value, problems };
  }
}
