import { Controller, Delete, Get, Param, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Route } from '../common/http/route.decorator';
import { ValidBody } from '../common/validation/dto-validation.pipe';
import {
  BalanceAlertResponse,
  NetworkBalanceAlertDto,
  type BalanceAlertInput,
} from './dto/balance-alert.dto';
import { BalanceAlertsService } from './balance-alerts.service';
import { NetworkBalanceAlertRules } from './balance-alerts.validation';

/** docs/reference/balance-alerts.md#1-thresholds: the default of every relayer on the network. */
@ApiTags('networks')
@ApiBearerAuth()
@Controller('networks/:network_id/balance-alert')
export class NetworkBalanceAlertController {
  constructor(private readonly alerts: BalanceAlertsService) {}

  @Get()
  @Route({ permission: 'networks:read', status: 200, response: BalanceAlertResponse, errors: [404] })
  get(@Param('network_id') id: string): Promise<BalanceAlertResponse> {
    return this.alerts.getNetwork(id);
  }

  @Put()
  @Route({
    permission: 'networks:write',
    status: 200,
    response: BalanceAlertResponse,
    body: NetworkBalanceAlertDto,
    errors: [404, 504],
  })
  put(
    @Param('network_id') id: string,
    @ValidBody(NetworkBalanceAlertRules) body: BalanceAlertInput,
  ): Promise<BalanceAlertResponse> {
    return this.alerts.putNetwork(id, body);
  }

  @Delete()
  @Route({ permission: 'networks:write', status: 200, response: BalanceAlertResponse, errors: [404, 504] })
  remove(@Param('network_id') id: string): Promise<BalanceAlertResponse> {
    return this.alerts.deleteNetwork(id);
  }
}
