import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, ValidateBy } from 'class-validator';
import { CursorPageQueryDto } from '../../common/http/cursor-page-query.dto';
import { IsRfc3339DateTime } from '../../common/validation/rfc3339';
import { auditActions, auditedTypes } from '../audit-change';

/** Read when a query is checked: extensions declare their resources when the application is built. */
function IsOneOf(known: () => readonly string[], message: () => string): PropertyDecorator {
  return ValidateBy(
    { name: 'isOneOf', validator: { validate: (value: unknown) => known().includes(value as string) } },
    { message },
  );
}

/** `page` and `per_page` or `cursor` and `limit`, and the filters of GET /api/v1/audit. */
export class AuditQueryDto extends CursorPageQueryDto {
  // The enums of resource_type and action are written when the document is built (audit.openapi.ts).
  @ApiPropertyOptional()
  @IsOptional()
  @IsOneOf(auditedTypes, () => `resource_type must be one of: ${auditedTypes().join(', ')}`)
  resource_type?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString({ message: 'resource_id must be a string' })
  @MaxLength(120, { message: 'resource_id must be at most 120 characters' })
  resource_id?: string;

  @ApiPropertyOptional({ description: '`admin` for the API_KEY, or a managed key id' })
  @IsOptional()
  @IsString({ message: 'actor_id must be a string' })
  @MaxLength(36, { message: 'actor_id must be at most 36 characters' })
  actor_id?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsOneOf(() => auditActions(auditedTypes()), () => 'action must be <resource_type>.<create|update|delete>')
  action?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description:
      'RFC 3339 date and time (offset required, e.g. 2030-01-01T00:00:00Z); records at or after it',
  })
  @IsOptional()
  @IsRfc3339DateTime('since must be an RFC 3339 date and time')
  since?: Date;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: 'RFC 3339 date and time (offset required, e.g. 2030-01-01T00:00:00Z); records before it',
  })
  @IsOptional()
  @IsRfc3339DateTime('until must be an RFC 3339 date and time')
  until?: Date;
}

export class AuditActor {
  @ApiProperty({ enum: ['admin', 'api_key', 'system', 'config'] })
  type: string;

  @ApiProperty({ type: String, nullable: true })
  id: string | null;

  @ApiProperty()
  name: string;
}

export class AuditEventResponse {
  @ApiProperty()
  id: string;

  @ApiProperty({ example: '2026-11-23T18:00:00.000Z' })
  at: string;

  @ApiProperty({ type: AuditActor })
  actor: AuditActor;

  @ApiProperty({ example: 'relayer.update' })
  action: string;

  @ApiProperty()
  resource_type: string;

  @ApiProperty()
  resource_id: string;

  @ApiProperty()
  request_id: string;

  @ApiProperty({
    type: Object,
    nullable: true,
    description: 'The resource as answered before; null for a create',
  })
  before: object | null;

  @ApiProperty({
    type: Object,
    nullable: true,
    description: 'The resource as answered after; null for a delete',
  })
  after: object | null;
}
