import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import type { Principal } from '../common/auth/principal';
import { OrTheKeyItself, RequirePermission } from '../common/auth/require-permission.decorator';
import { ValidBody } from '../common/validation/dto-validation.pipe';
import { ApiEnvelope, ApiErrors } from '../common/http/openapi.decorators';
import { Page, PageQueryDto } from '../common/http/page.dto';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { IdempotentReplayOmits } from '../common/http/idempotent-replay.decorator';
import { ApiKeysService } from './api-keys.service';
import { apiKeyNotFound } from './api-keys.errors';
import {
  ApiKeyResponse,
  CallerResponse,
  CreateApiKeyDto,
  CreatedApiKeyResponse,
  RotateApiKeyDto,
} from './dto/api-key.dto';
import { ApiKeyCreateRules } from './api-keys.validation';
import { Route } from '../common/http/route.decorator';

const ApiKeyId = (): ParameterDecorator => Param('api_key_id', new ParseIdPipe(apiKeyNotFound));

/**
 * docs/reference/keys-and-audit.md; create only what the caller holds (docs/reference/hardening.md), rotate
 * and revoke only what it created, read only what its relayer scope covers.
 */
@ApiTags('api-keys')
@ApiBearerAuth()
@Controller('api-keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post()
  @Route({
    permission: 'api_keys:manage',
    alsoForbidden:
      'one of the permissions asked for (* only by a key holding *), a relayer scope or allowed_cidrs beyond its own',
    status: 201,
    response: CreatedApiKeyResponse,
    body: CreateApiKeyDto,
    errors: [504],
  })
  @ApiOperation({
    description:
      'A key grants only what it holds: the new key may hold only permissions the caller holds, and * only a caller holding *.',
  })
  // A retry with the same Idempotency-Key learns the key's id, never the key a second time.
  @IdempotentReplayOmits('key')
  create(
    @ValidBody(ApiKeyCreateRules) body: CreateApiKeyDto,
    @CurrentPrincipal() caller: Principal,
  ): Promise<CreatedApiKeyResponse> {
    return this.keys.create(body, caller);
  }

  @Post(':api_key_id/rotate')
  @Route({
    permission: 'api_keys:manage',
    alsoForbidden:
      'the secret a rotation replaced, which only reads (a key rotating itself needs no permission)',
    status: 201,
    response: CreatedApiKeyResponse,
    body: RotateApiKeyDto,
    // Absent: no overlap.
    optionalBody: true,
    errors: [404, 504],
  })
  @OrTheKeyItself('api_key_id')
  @ApiOperation({
    description:
      'A new secret for the same key (same id, permissions and restrictions); the replaced secret keeps working ' +
      'for reads until overlap_seconds have passed, then answers 401 on every instance. A key may rotate itself ' +
      'with its current secret; rotating another key needs api_keys:manage and that the caller created it, ' +
      'directly or through keys it created: any other key is 404, as an unknown one.',
  })
  // A retry with the same Idempotency-Key never shows the new key a second time.
  @IdempotentReplayOmits('key')
  rotate(
    @ApiKeyId() id: string,
    @Body() body: RotateApiKeyDto,
    @CurrentPrincipal() caller: Principal,
  ): Promise<CreatedApiKeyResponse> {
    return this.keys.rotate(id, body, caller);
  }

  @Get()
  @Route({ permission: 'api_keys:manage', status: 200, response: ApiKeyResponse, list: true })
  @ApiOperation({
    description:
      'Every key; to a key with relayer_ids, only the keys whose relayer_ids lie inside its own, itself among them.',
  })
  list(@Query() query: PageQueryDto, @CurrentPrincipal() caller: Principal): Promise<Page<ApiKeyResponse>> {
    return this.keys.list(query, caller);
  }

  // Before ':api_key_id', which would take `self` for an id (key ids are UUIDs: none is `self`).
  @Get('self')
  @Route({ permission: 'none', status: 200, response: CallerResponse })
  @ApiOperation({
    description:
      'The caller: the administrator or the API key of the bearer token, with its permissions, its relayer scope ' +
      'and when the secret used stops working; any valid key may ask, and the secret is never answered.',
  })
  self(@CurrentPrincipal() caller: Principal): CallerResponse {
    return this.keys.self(caller);
  }

  @Get(':api_key_id')
  @Route({ permission: 'api_keys:manage', status: 200, response: ApiKeyResponse, errors: [404] })
  @ApiOperation({
    description:
      'To a key with relayer_ids, a key whose relayer_ids are not inside its own is 404, as an unknown one.',
  })
  get(@ApiKeyId() id: string, @CurrentPrincipal() caller: Principal): Promise<ApiKeyResponse> {
    return this.keys.get(id, caller);
  }

  @Get(':api_key_id/permissions')
  @HttpCode(200)
  @RequirePermission('api_keys:manage')
  @ApiEnvelope(String, 200, { list: true })
  @ApiErrors(401, 404, 429, 500, 503)
  permissions(@ApiKeyId() id: string, @CurrentPrincipal() caller: Principal): Promise<string[]> {
    return this.keys.permissions(id, caller);
  }

  @Delete(':api_key_id')
  @Route({
    permission: 'api_keys:manage',
    status: 200,
    response: String,
    errors: [404, 504],
  })
  @ApiOperation({
    description:
      'Revokes the key and the keys it created, theirs and so on. A key may revoke only itself and the keys it ' +
      'created, directly or through keys it created: any other key is 404, as an unknown one.',
  })
  revoke(@ApiKeyId() id: string, @CurrentPrincipal() caller: Principal): Promise<string> {
    return this.keys.revoke(id, caller);
  }
}
