import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import type { Principal } from '../common/auth/principal';
import { Page, PageQueryDto } from '../common/http/page.dto';
import { Route } from '../common/http/route.decorator';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { CreateRoleDto, RoleResponse, UpdateRoleDto } from './dto/role.dto';
import { roleNotFound } from './roles.errors';
import { RolesService } from './roles.service';

const RoleId = (): ParameterDecorator => Param('role_id', new ParseIdPipe(roleNotFound));

const BEYOND_THE_CALLER =
  'a role holding a permission the caller lacks (* only a caller holding *) or a relayer scope beyond its own';

/**
 * docs/access.md#roles-from-the-providers-groups-to-permissions: the identity provider's groups mapped to permissions and a relayer scope,
 * granted to the people in them; changes apply at their next request.
 */
@ApiTags('roles')
@ApiBearerAuth()
@Controller('roles')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @Post()
  @Route({
    permission: 'roles:manage',
    alsoForbidden: BEYOND_THE_CALLER,
    status: 201,
    response: RoleResponse,
    body: CreateRoleDto,
    errors: [409, 504],
  })
  create(@Body() body: CreateRoleDto, @CurrentPrincipal() caller: Principal): Promise<RoleResponse> {
    return this.roles.create(body, caller);
  }

  @Get()
  @Route({ permission: 'roles:manage', status: 200, response: RoleResponse, list: true })
  @ApiOperation({
    description:
      'Every role; to a caller with relayer_ids, only the roles whose relayer_ids lie inside its own.',
  })
  list(@Query() query: PageQueryDto, @CurrentPrincipal() caller: Principal): Promise<Page<RoleResponse>> {
    return this.roles.list(query, caller);
  }

  @Get(':role_id')
  @Route({ permission: 'roles:manage', status: 200, response: RoleResponse, errors: [404] })
  get(@RoleId() id: string, @CurrentPrincipal() caller: Principal): Promise<RoleResponse> {
    return this.roles.get(id, caller);
  }

  @Patch(':role_id')
  @Route({
    permission: 'roles:manage',
    alsoForbidden: BEYOND_THE_CALLER,
    status: 200,
    response: RoleResponse,
    body: UpdateRoleDto,
    errors: [404, 504],
  })
  update(
    @RoleId() id: string,
    @Body() body: UpdateRoleDto,
    @CurrentPrincipal() caller: Principal,
  ): Promise<RoleResponse> {
    return this.roles.update(id, body, caller);
  }

  @Delete(':role_id')
  @Route({
    permission: 'roles:manage',
    alsoForbidden: BEYOND_THE_CALLER,
    status: 200,
    response: String,
    errors: [404, 504],
  })
  @ApiOperation({ description: 'The people who held only this role are signed out at their next request.' })
  remove(@RoleId() id: string, @CurrentPrincipal() caller: Principal): Promise<string> {
    return this.roles.remove(id, caller);
  }
}
