import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Page } from '../common/http/page.dto';
import { AuditService } from './audit.service';
import { AuditEventResponse, AuditQueryDto } from './dto/audit.dto';
import { Route } from '../common/http/route.decorator';

@ApiTags('audit')
@ApiBearerAuth()
@Controller('audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  /** Every change made through the API, newest first, with who made it and the resource before and after. */
  @Get()
  @Route({ permission: 'audit:read', status: 200, response: AuditEventResponse, list: true })
  list(@Query() query: AuditQueryDto): Promise<Page<AuditEventResponse>> {
    return this.audit.list(query);
  }
}
