import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrors } from '../common/http/openapi';
import { Page, PageQueryDto } from '../common/http/page';
import { CreateRelayerDto, RelayerResponse, UpdateRelayerDto } from './dto/relayer.dto';
import { RelayersService } from './relayers.service';

@ApiTags('relayers')
@ApiBearerAuth()
@Controller('relayers')
export class RelayersController {
  constructor(private readonly relayers: RelayersService) {}

  @Post()
  @HttpCode(201)
  @ApiEnvelope(RelayerResponse, 201)
  @ApiErrors(400, 401, 409, 413, 429, 500, 503, 504)
  create(@Body() dto: CreateRelayerDto): Promise<RelayerResponse> {
    return this.relayers.create(dto);
  }

  @Get()
  @HttpCode(200)
  @ApiEnvelope(RelayerResponse, 200, { list: true })
  @ApiErrors(400, 401, 429, 500, 503)
  list(@Query() query: PageQueryDto): Promise<Page<RelayerResponse>> {
    return this.relayers.list(query);
  }

  @Get(':relayer_id')
  @HttpCode(200)
  @ApiEnvelope(RelayerResponse, 200)
  @ApiErrors(401, 404, 429, 500, 503)
  get(@Param('relayer_id') id: string): Promise<RelayerResponse> {
    return this.relayers.get(id);
  }

  @Patch(':relayer_id')
  @HttpCode(200)
  @ApiEnvelope(RelayerResponse, 200)
  @ApiErrors(400, 401, 404, 413, 429, 500, 503, 504)
  update(@Param('relayer_id') id: string, @Body() dto: UpdateRelayerDto): Promise<RelayerResponse> {
    return this.relayers.update(id, dto);
  }

  @Delete(':relayer_id')
  @HttpCode(200)
  @ApiEnvelope(String, 200)
  @ApiErrors(401, 404, 429, 500, 503)
  remove(@Param('relayer_id') id: string): Promise<string> {
    return this.relayers.remove(id);
  }
}
