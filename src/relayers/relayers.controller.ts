import { Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import type { Principal } from '../common/auth/principal';
import { Tagged } from '../common/http/tagged';
import { IfMatch, IfMatchHeader } from '../common/http/if-match';
import { Page } from '../common/http/page.dto';
import { ParseFlagPipe } from '../common/validation/parse-flag.pipe';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { ParseOneOfPipe } from '../common/validation/parse-one-of.pipe';
import { ValidBody } from '../common/validation/dto-validation.pipe';
import {
  CreateRelayerDto,
  RelayerListItemResponse,
  RelayerListQueryDto,
  RelayerResponse,
  RELAYER_SUMMARY_INCLUDES,
  RelayerSummaryResponse,
  UpdateRelayerDto,
  type RelayerSummaryInclude,
} from './dto/relayer.dto';
import { RelayerCreateRules, RelayerPatchRules, type NewRelayer } from './relayers.validation';
import { RelayersService } from './relayers.service';
import { relayerNotFound } from './relayers.errors';
import { Route } from '../common/http/route.decorator';

const RelayerId = (): ParameterDecorator => Param('relayer_id', new ParseIdPipe(relayerNotFound));

@ApiTags('relayers')
@ApiBearerAuth()
@Controller('relayers')
export class RelayersController {
  constructor(private readonly relayers: RelayersService) {}

  @Post()
  @Route({
    permission: 'relayers:write',
    status: 201,
    response: RelayerResponse,
    etag: true,
    body: CreateRelayerDto,
    dryRun: true,
    errors: [409, 504],
  })
  create(
    @ValidBody(RelayerCreateRules) body: NewRelayer,
    @Query('dry_run', new ParseFlagPipe('dry_run')) dryRun: boolean,
  ): Promise<Tagged<RelayerResponse>> {
    return this.relayers.create(body, { dryRun });
  }

  @Get()
  @Route({ permission: 'relayers:read', status: 200, response: RelayerListItemResponse, list: true })
  list(@Query() query: RelayerListQueryDto): Promise<Page<RelayerListItemResponse>> {
    return this.relayers.list(query);
  }

  // Before GET :relayer_id, which would take `summary` for an id.
  @Get('summary')
  @Route({ permission: 'relayers:read', status: 200, response: RelayerSummaryResponse, errors: [400] })
  @ApiQuery({
    name: 'include',
    required: false,
    enum: RELAYER_SUMMARY_INCLUDES,
    description:
      'notifications: the webhook targets counted as GET /api/v1/notifications/summary counts them (needs notifications:read too)',
  })
  summary(
    @Query('include', new ParseOneOfPipe('include', RELAYER_SUMMARY_INCLUDES))
    include: RelayerSummaryInclude | undefined,
    @CurrentPrincipal() caller: Principal,
  ): Promise<RelayerSummaryResponse> {
    return this.relayers.summary(include, caller);
  }

  @Get(':relayer_id')
  @Route({ permission: 'relayers:read', status: 200, response: RelayerResponse, etag: true, errors: [404] })
  get(@RelayerId() id: string): Promise<Tagged<RelayerResponse>> {
    return this.relayers.getTagged(id);
  }

  @Patch(':relayer_id')
  @Route({
    permission: 'relayers:write',
    status: 200,
    response: RelayerResponse,
    etag: true,
    body: UpdateRelayerDto,
    ifMatch: true,
    dryRun: true,
    errors: [404, 504],
  })
  update(
    @RelayerId() id: string,
    @ValidBody(RelayerPatchRules) body: UpdateRelayerDto,
    @IfMatchHeader() ifMatch: IfMatch | null,
    @Query('dry_run', new ParseFlagPipe('dry_run')) dryRun: boolean,
  ): Promise<Tagged<RelayerResponse>> {
    return this.relayers.update(id, body, { ifMatch, dryRun });
  }

  @Delete(':relayer_id')
  @Route({ permission: 'relayers:write', status: 200, response: String, ifMatch: true, errors: [404, 504] })
  remove(@RelayerId() id: string, @IfMatchHeader() ifMatch: IfMatch | null): Promise<string> {
    return this.relayers.remove(id, { ifMatch });
  }
}
