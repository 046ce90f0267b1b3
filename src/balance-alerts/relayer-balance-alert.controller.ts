import { Controller, Delete, Get, Param, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Route } from '../common/http/route.decorator';
import { ValidBody } from '../common/validation/dto-validation.pipe';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { relayerNotFound } from '../relayers';
import {
  BalanceAlertResponse,
  RelayerBalanceAlertDto,
  type BalanceAlertInput,
} from './dto/balance-alert.dto';
import { BalanceAlertsService } from './balance-alerts.service';
import { RelayerBalanceAlertRules } from './balance-alerts.validation';

const RelayerId = (): ParameterDecorator => Param('relayer_id', new ParseIdPipe(relayerNotFound));

/** docs/reference/balance-alerts.md#1-thresholds: a relayer's own rule, over its network's. */
@ApiTags('relayers')
@ApiBearerAuth()
@Controller('relayers/:relayer_id/balance-alert')
export class RelayerBalanceAlertController {
  constructor(private readonly alerts: BalanceAlertsService) {}

  @Get()
  @Route({ permission: 'relayers:read', status: 200, response: BalanceAlertResponse, errors: [404] })
  get(@RelayerId() id: string): Promise<BalanceAlertResponse> {
    return this.alerts.getRelayer(id);
  }

  @Put()
  @Route({
    permission: 'relayers:write',
    status: 200,
    response: BalanceAlertResponse,
    body: RelayerBalanceAlertDto,
    errors: [404, 504],
  })
  put(
    @RelayerId() id: string,
    @ValidBody(RelayerBalanceAlertRules) body: BalanceAlertInput,
  ): Promise<BalanceAlertResponse> {
    return this.alerts.putRelayer(id, body);
  }

  /** Answers what applies once the relayer's rule is gone: its network's, or none. */
  @Delete()
  @Route({ permission: 'relayers:write', status: 200, response: BalanceAlertResponse, errors: [404, 504] })
  remove(@RelayerId() id: string): Promise<BalanceAlertResponse> {
    return this.alerts.deleteRelayer(id);
  }
}
