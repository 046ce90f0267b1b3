import { Controller, Delete, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import type { Principal } from '../common/auth/principal';
import { Page, PageQueryDto } from '../common/http/page.dto';
import { Route } from '../common/http/route.decorator';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { SessionResponse } from './dto/session.dto';
import { sessionNotFound } from './sessions.errors';
import { SessionsService } from './sessions.service';

/** docs/access.md#sessions-and-csrf: the people signed in, for administrators. */
@ApiTags('sessions')
@ApiBearerAuth()
@Controller('sessions')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Get()
  @Route({ permission: 'roles:manage', status: 200, response: SessionResponse, list: true })
  @ApiOperation({
    description:
      'Every live session; to a caller with relayer_ids, those of the people whose roles lie inside its scope.',
  })
  list(@Query() query: PageQueryDto, @CurrentPrincipal() caller: Principal): Promise<Page<SessionResponse>> {
    return this.sessions.list(query, caller);
  }

  @Delete(':session_id')
  @Route({ permission: 'roles:manage', status: 200, response: String, errors: [404] })
  @ApiOperation({ description: 'Ends the session at once, on every instance.' })
  remove(
    @Param('session_id', new ParseIdPipe(sessionNotFound)) id: string,
    @CurrentPrincipal() caller: Principal,
  ): Promise<string> {
    return this.sessions.remove(id, caller);
  }
}
