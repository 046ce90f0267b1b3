import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { NoBody } from '../common/http/no-body.decorator';
import { ApiEnvelope, ApiErrors } from '../common/http/openapi';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { relayerNotFound } from '../relayers/relayers.service';
import { BalanceResponse, RelayerStatusResponse } from './dto/relayer-status.dto';
import { RelayerHealthService } from './relayer-health.service';
import { RequirePermission } from '../common/auth/require-permission.decorator';

const RelayerId = (): ParameterDecorator => Param('relayer_id', new ParseIdPipe(relayerNotFound));

/** A relayer's health as its last check found it, and a check on demand (docs/reference/relayer-health.md#3-on-demand). */
@ApiTags('relayers')
@ApiBearerAuth()
@Controller('relayers/:relayer_id')
export class RelayerHealthController {
  constructor(private readonly health: RelayerHealthService) {}

  @Get('status')
  @RequirePermission('relayers:read')
  @HttpCode(200)
  @ApiEnvelope(RelayerStatusResponse, 200)
  @ApiErrors(401, 404, 429, 500, 503)
  status(@RelayerId() id: string): Promise<RelayerStatusResponse> {
    return this.health.status(id);
  }

  @Get('balance')
  @RequirePermission('relayers:read')
  @HttpCode(200)
  @ApiEnvelope(BalanceResponse, 200)
  @ApiErrors(401, 404, 429, 500, 503)
  balance(@RelayerId() id: string): Promise<BalanceResponse> {
    return this.health.balance(id);
  }

  @Post('check')
  @RequirePermission('relayers:write')
  @HttpCode(200)
  @NoBody()
  @ApiEnvelope(RelayerStatusResponse, 200)
  @ApiErrors(401, 404, 429, 500, 503, 504)
  check(@RelayerId() id: string): Promise<RelayerStatusResponse> {
    return this.health.checkNow(id);
  }
}
