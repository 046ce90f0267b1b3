import type { OpenAPIObject } from '@nestjs/swagger';
import { knownGrants } from '../common/auth/principal';

/** Extensions' permissions are declared after the DTO's decorators ran (docs/extending.md#permissions). */
export function documentGrants(document: OpenAPIObject): OpenAPIObject {
  const schema = document.components?.schemas?.CreateApiKeyDto;
  const permissions = schema && 'properties' in schema ? schema.properties?.permissions : undefined;
  const items = permissions && 'items' in permissions ? permissions.items : undefined;
  if (items && !('$ref' in items)) items.enum = [...knownGrants()];
  return document;
}
