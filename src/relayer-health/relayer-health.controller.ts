import { Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { relayerNotFound } from '../relayers';
import { BalanceResponse, RelayerStatusResponse } from './dto/relayer-status.dto';
import { RelayerHealthService } from './relayer-health.service';
import { BalanceHistoryService } from './balance-history.service';
import { BalanceHistoryQueryDto, BalanceHistoryResponse } from './dto/balance-history.dto';
import { Route } from '../common/http/route.decorator';

const RelayerId = (): ParameterDecorator => Param('relayer_id', new ParseIdPipe(relayerNotFound));

/** docs/reference/relayer-health.md#3-on-demand */
@ApiTags('relayers')
@ApiBearerAuth()
@Controller('relayers/:relayer_id')
export class RelayerHealthController {
  constructor(
    private readonly health: RelayerHealthService,
    private readonly history: BalanceHistoryService,
  ) {}

  @Get('status')
  @Route({ permission: 'relayers:read', status: 200, response: RelayerStatusResponse, errors: [404] })
  status(@RelayerId() id: string): Promise<RelayerStatusResponse> {
    return this.health.status(id);
  }

  @Get('balance')
  @Route({ permission: 'relayers:read', status: 200, response: BalanceResponse, errors: [404] })
  balance(@RelayerId() id: string): Promise<BalanceResponse> {
    return this.health.balance(id);
  }

  /** docs/reference/relayer-health.md#35-balance-history */
  @Get('balance-history')
  @Route({ permission: 'relayers:read', status: 200, response: BalanceHistoryResponse, errors: [400, 404] })
  balanceHistory(
    @RelayerId() id: string,
    @Query() query: BalanceHistoryQueryDto,
  ): Promise<BalanceHistoryResponse> {
    return this.history.history(id, query.window);
  }

  @Post('check')
  @Route({
    permission: 'relayers:write',
    status: 200,
    response: RelayerStatusResponse,
    noBody: true,
    errors: [404, 504],
  })
  check(@RelayerId() id: string): Promise<RelayerStatusResponse> {
    return this.health.checkNow(id);
  }
}
