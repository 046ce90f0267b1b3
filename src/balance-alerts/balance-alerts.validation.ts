import { Injectable } from '@nestjs/common';
import type { BodyRules, Checked, DtoCheck } from '../common/validation/dto-validation.pipe';
import {
  NetworkBalanceAlertDto,
  RelayerBalanceAlertDto,
  type BalanceAlertInput,
} from './dto/balance-alert.dto';
import { thresholdText } from './threshold';

/** The DTO checked the threshold (the value is used only when it passed); here it becomes its decimal text. */
function toInput({ value, failed }: DtoCheck<RelayerBalanceAlertDto>): Checked<BalanceAlertInput> {
  const { threshold } = value;
  return {
    value: { threshold: threshold === null || failed.has('threshold') ? null : thresholdText(threshold) },
    problems: [],
  };
}

/** PUT /networks/{id}/balance-alert (docs/reference/balance-alerts.md#1-thresholds): a threshold, never null. */
@Injectable()
export class NetworkBalanceAlertRules implements BodyRules<NetworkBalanceAlertDto, BalanceAlertInput> {
  readonly dto = NetworkBalanceAlertDto;
  readonly check = toInput;
}

/** PUT /relayers/{id}/balance-alert: a threshold, or null for no alert whatever the network says. */
@Injectable()
export class RelayerBalanceAlertRules implements BodyRules<RelayerBalanceAlertDto, BalanceAlertInput> {
  readonly dto = RelayerBalanceAlertDto;
  readonly check = toInput;
}
