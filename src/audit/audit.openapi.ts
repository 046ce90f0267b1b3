import type { OpenAPIObject } from '@nestjs/swagger';
import { auditActions, auditedTypes } from './audit-change';

/** Resources are declared after the DTOs' decorators ran (docs/reference/extension-events.md). */
export function documentAuditTypes(document: OpenAPIObject): OpenAPIObject {
  const types = [...auditedTypes()];
  const enums: Record<string, string[]> = { resource_type: types, action: auditActions(types) };
  for (const parameter of document.paths['/api/v1/audit']?.get?.parameters ?? []) {
    if ('$ref' in parameter || !(parameter.name in enums) || !parameter.schema) continue;
    if (!('$ref' in parameter.schema)) parameter.schema.enum = enums[parameter.name];
  }
  const response = document.components?.schemas?.AuditEventResponse;
  const type = response && 'properties' in response ? response.properties?.resource_type : undefined;
  if (type && !('$ref' in type)) type.enum = types;
  return document;
}
