import { Injectable } from '@nestjs/common';
import type { BodyRules, Checked, DtoCheck } from '../common/validation/dto-validation.pipe';
import {
  NetworkBalanceAlertDto,
  RelayerBalanceAlertDto,
  type BalanceAlertInput,
} from './dto/balance-alert.dto';
import { parseThreshold } from './threshold';

function checkThreshold(
  body: DtoCheck<{ threshold: unknown }>,
  nullable: boolean,
): Checked<BalanceAlertInput> {
  if (body.failed.has('threshold')) return { value: { threshold: null }, problems: [] };
  const parsed = parseThreshold(body.value.threshold, nullable);
  return 'problem' in parsed
    ? { value: { threshold: null }, problems: [parsed.problem] }
    : { value: { threshold: parsed.threshold }, problems: [] };
}

/** PUT /networks/{id}/balance-alert (docs/reference/balance-alerts.md#1-thresholds): a threshold, never null. */
@Injectable()
export class NetworkBalanceAlertRules implements BodyRules<NetworkBalanceAlertDto, BalanceAlertInput> {
  readonly dto = NetworkBalanceAlertDto;

  check(body: DtoCheck<NetworkBalanceAlertDto>): Checked<BalanceAlertInput> {
    return checkThreshold(body, false);
  }
}

/** PUT /relayers/{id}/balance-alert: a threshold, or null for no alert whatever the network says. */
@Injectable()
export class RelayerBalanceAlertRules implements BodyRules<RelayerBalanceAlertDto, BalanceAlertInput> {
  readonly dto = RelayerBalanceAlertDto;

  check(body: DtoCheck<RelayerBalanceAlertDto>): Checked<BalanceAlertInput> {
    return checkThreshold(body, true);
  }
}
