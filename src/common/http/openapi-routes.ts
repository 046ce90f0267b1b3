import { RequestMethod, type INestApplication, type Type } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import {
  ApiExtraModels,
  ApiHeader,
  getSchemaPath,
  type ReferenceObject,
  type SchemaObject,
} from '@nestjs/swagger';
import { IS_PUBLIC } from '../auth/public.decorator';
import { REQUIRED_PERMISSION } from '../auth/require-permission.decorator';
import { envelopeSchema, errorEnvelopeSchema, ERROR_TEXT, GLOBAL_ERRORS } from './openapi.decorators';
import { RAW_RESPONSE } from './raw-response.decorator';
import { LIST_ROUTE } from './route.decorator';

/** Where @nestjs/swagger keeps a handler's @ApiResponse entries, by status. */
const API_RESPONSE = 'swagger/apiResponse';

interface ResponseEntry {
  description?: string;
  type?: unknown;
  isArray?: boolean;
  schema?: SchemaObject | ReferenceObject;
  [other: string]: unknown;
}

const isSuccess = (status: string) => /^2\d\d$/.test(status);

const isEnvelope = (entry: ResponseEntry) =>
  entry.schema !== undefined &&
  'properties' in entry.schema &&
  entry.schema.properties?.success !== undefined;

/**
 * Routes an extension adds document what their handler returns (a bare DTO with @ApiOkResponse, or
 * nothing); the envelope interceptor wraps it all the same. Each such route is documented as the
 * service's own are (docs/reference/extension-events.md#18-routes-of-an-extension): its success
 * response in the envelope with the DTO as `data`, and the error statuses every route may answer.
 * Routes that already document an envelope (the service's, or an extension's using ApiEnvelope) and
 * routes answered raw are left as they are.
 */
export function documentEnvelopes(app: INestApplication): void {
  forEachRoute(app, (controller, key, descriptor) => {
    if (Reflect.getMetadata(RAW_RESPONSE, descriptor.value as object) === true) return;
    documentRoute(controller, key, descriptor);
  });
}

/**
 * Conditional GETs (docs/reference/safe-writes.md#14-conditional-gets), as the envelope interceptor and
 * conditional-get.ts answer them: a list's 200 carries the ETag of its body; and every GET whose 200
 * carries an ETag (lists, tagged resources) takes `If-None-Match` and may answer 304.
 */
export function documentConditionalGets(app: INestApplication): void {
  forEachRoute(app, (controller, key, descriptor) => {
    const handler = descriptor.value as object;
    if (Reflect.getMetadata(METHOD_METADATA, handler) !== RequestMethod.GET) return;
    const responses = (Reflect.getMetadata(API_RESPONSE, handler) ?? {}) as Record<string, ResponseEntry>;
    const ok = responses['200'];
    if (ok === undefined) return;
    if (Reflect.getMetadata(LIST_ROUTE, handler) === true) {
      ok.headers = { ...(ok.headers as object | undefined), ETag: LIST_ETAG_HEADER };
    }
    // Documented once per process: the metadata is the controllers', shared by every app.
    if ((ok.headers as Record<string, unknown> | undefined)?.ETag === undefined || '304' in responses) return;
    responses['304'] = {
      description: 'Not Modified: If-None-Match names the current ETag; no body',
      headers: { ETag: { schema: { type: 'string' } } },
    };
    Reflect.defineMetadata(API_RESPONSE, responses, handler);
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description:
        'The ETag of the answer the client holds (or a list of tags, or *): 304 without a body while it is current',
    })(controller.prototype as object, key, descriptor);
  });
}

const LIST_ETAG_HEADER = {
  description:
    'Strong entity tag of this answer, a digest of its body (it depends on the key); send it back in If-None-Match',
  schema: { type: 'string', example: '"n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg"' },
} as const;

/** Each route handler of the application's controllers, with its controller, name and descriptor. */
function forEachRoute(
  app: INestApplication,
  visit: (controller: Type<unknown>, key: string, descriptor: PropertyDescriptor) => void,
): void {
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type<unknown> | null;
      if (!controller) continue;
      for (const key of Object.getOwnPropertyNames(controller.prototype)) {
        const descriptor = Object.getOwnPropertyDescriptor(controller.prototype, key);
        const handler: unknown = descriptor?.value;
        if (key === 'constructor' || typeof handler !== 'function') continue;
        if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        visit(controller, key, descriptor as PropertyDescriptor);
      }
    }
  }
}

function documentRoute(controller: Type<unknown>, key: string, descriptor: PropertyDescriptor): void {
  const handler = descriptor.value as object;
  const declared = (Reflect.getMetadata(API_RESPONSE, handler) ?? {}) as Record<string, ResponseEntry>;
  const success = Object.keys(declared).filter(isSuccess);
  if (success.some((status) => isEnvelope(declared[status]))) return;
  const responses: Record<string, ResponseEntry> = { ...declared };
  // A route that always refuses (@HttpCode(400)) has no success to wrap: its errors are documented as they are.
  const statuses = success.length > 0 ? success : [String(defaultStatus(handler))].filter(isSuccess);
  for (const status of statuses) {
    const entry = declared[status] ?? {};
    const model = typeof entry.type === 'function' ? (entry.type as Type<unknown>) : undefined;
    if (model) ApiExtraModels(model)(controller.prototype as object, key, descriptor);
    const data: SchemaObject | ReferenceObject =
      model === undefined
        ? (entry.schema ?? {})
        : entry.isArray
          ? { type: 'array', items: { $ref: getSchemaPath(model) } }
          : { $ref: getSchemaPath(model) };
    responses[status] = {
      description: entry.description ?? '',
      ...(entry.headers ? { headers: entry.headers } : {}),
      schema: envelopeSchema(data),
    };
  }
  const isPublic = [handler, controller].some((target) => Reflect.getMetadata(IS_PUBLIC, target) === true);
  const errors = isPublic ? GLOBAL_ERRORS.filter((status) => status !== 401) : [...GLOBAL_ERRORS, 403];
  for (const status of errors) {
    responses[status] ??= {
      description:
        status === 403 && Reflect.getMetadata(REQUIRED_PERMISSION, handler) === undefined
          ? "Forbidden: the route is the administrator's alone"
          : (ERROR_TEXT[status] ?? 'Error'),
      schema: errorEnvelopeSchema,
    };
  }
  Reflect.defineMetadata(API_RESPONSE, responses, handler);
}

/** What Nest answers when the route does not say (@HttpCode): 201 for POST, else 200. */
function defaultStatus(handler: object): number {
  const code = Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined;
  if (code !== undefined) return code;
  return Reflect.getMetadata(METHOD_METADATA, handler) === RequestMethod.POST ? 201 : 200;
}
