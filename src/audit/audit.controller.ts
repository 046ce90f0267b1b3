import { Controller, Get, HttpCode, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../common/auth/require-permission.decorator';
import { ApiEnvelope, ApiErrors } from '../common/http/openapi';
import { Page } from '../common/http/page';
import { AuditService } from './audit.service';
import { AuditEventResponse, AuditQueryDto } from './dto/audit.dto';

@ApiTags('audit')
@ApiBearerAuth()
@Controller('audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  /** Every change made through the API, newest first, with who made it and the resource before and after. */
  @Get()
  @HttpCode(200)
  @RequirePermission('audit:read')
  @ApiEnvelope(AuditEventResponse, 200, { list: true })
  @ApiErrors(400, 401, 429, 500, 503)
  list(@Query() query: AuditQueryDto): Promise<Page<AuditEventResponse>> {
    return this.audit.list(query);
  }
}
