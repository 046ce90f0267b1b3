import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiProperty, ApiPropertyOptional, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { successEnvelope } from '../common/http/envelope.interceptor';
import { RawResponse } from '../common/http/raw-response.decorator';
import { Route } from '../common/http/route.decorator';
import { ParseFlagPipe } from '../common/validation/parse-flag.pipe';
import { ConfigExportService, type ExportedConfig } from './config-export.service';

/** A configuration file in the reference system's format: networks inline, secrets as `env` references. */
class ConfigFileResponse {
  @ApiProperty({ type: 'array', items: { type: 'object' } })
  networks: object[];

  @ApiProperty({ type: 'array', items: { type: 'object' } })
  signers: object[];

  @ApiProperty({ type: 'array', items: { type: 'object' } })
  notifications: object[];

  @ApiProperty({ type: 'array', items: { type: 'object' } })
  relayers: object[];

  @ApiProperty({
    type: 'array',
    items: { type: 'object' },
    description:
      'Alert channels, their secrets as env references (a section the reference system does not read)',
  })
  alert_channels: object[];

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object' },
    description: "The source file's plugins as they were (not run by this service); absent when it had none",
  })
  plugins?: object[];
}

/** The managed state as a configuration file (docs/reference/config-file.md#3-taking-it-back-out). */
@ApiTags('config')
@ApiBearerAuth()
@Controller('config')
export class ConfigFileController {
  constructor(private readonly exporter: ConfigExportService) {}

  /** `?download=true`: the bare file, as an attachment named config.json. */
  @Get()
  @RawResponse()
  @Route({ permission: 'config:read', status: 200, response: ConfigFileResponse, errors: [400] })
  @ApiQuery({ name: 'download', required: false, type: Boolean })
  async export(
    @Query('download', new ParseFlagPipe('download')) download: boolean,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ExportedConfig | object> {
    const file = await this.exporter.export();
    if (!download) return successEnvelope(file);
    response.setHeader('Content-Disposition', 'attachment; filename="config.json"');
    return file;
  }
}
