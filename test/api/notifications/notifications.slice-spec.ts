import { Tagged } from '../../../src/common/http/tagged';
import { Page, PageQueryDto } from '../../../src/common/http/page.dto';
import {
  CreateNotificationDto,
  NotificationListQueryDto,
  UpdateNotificationDto,
} from '../../../src/notifications/dto/notification.dto';
import { NotificationsController } from '../../../src/notifications/notifications.controller';
import { NotificationsService } from '../../../src/notifications';
import {
  NotificationCreateRules,
  NotificationPatchRules,
} from '../../../src/notifications/notifications.validation';
import { notificationBody } from '../../factories';
import { controllerSlice, recordingStub, type Recorded, type Slice } from '../../support/controller-slice';
import { expectError, successBody } from '../../support/envelope';

// NotificationsController alone (docs/reference/notifications.md): the DTO rules of the bodies and the
// pagination query; the URL policy runs too (the validation stage). Existence: the e2e tests; each
// route's permission: the route walk (test/http/routes.e2e-spec.ts).

const ANSWER = { id: 'n-1', type: 'webhook', url: 'https://hooks.example.com/hook', has_signing_key: false };
const ETAG = '"1-abc"';

describe('NotificationsController slice (no database)', () => {
  let slice: Slice;
  let service: NotificationsService & Recorded;
  beforeAll(async () => {
    service = recordingStub<NotificationsService>({
      create: () => new Tagged(ANSWER, ETAG),
      update: () => new Tagged(ANSWER, ETAG),
      getTagged: () => new Tagged(ANSWER, ETAG),
      list: (query: PageQueryDto) => new Page([ANSWER], query, 1),
      remove: () => 'Notification deleted successfully',
    });
    slice = await controllerSlice(NotificationsController, [
      { provide: NotificationsService, useValue: service },
      NotificationCreateRules,
      NotificationPatchRules,
    ]);
  });
  afterAll(() => slice.close());
  beforeEach(() => service.reset());

  it('POST: the service is handed a CreateNotificationDto of the body; 201 with the envelope and ETag', async () => {
    const body = notificationBody({ signing_key: 'k'.repeat(32) });
    const res = await slice.post('/api/v1/notifications', body);
    expect({ status: res.status, etag: res.headers.etag, body: res.body as unknown }).toEqual({
      status: 201,
      etag: ETAG,
      body: successBody(ANSWER),
    });
    const [input] = service.only('create') as [CreateNotificationDto];
    expect(input).toBeInstanceOf(CreateNotificationDto);
    expect({ ...input }).toEqual(body);
  });

  it.each([
    ['missing url', {}, 'url must be a string holding an http or https URL'],
    ['url of another type', { url: 42 }, 'url must be a string holding an http or https URL'],
    ['type email', { url: 'https://x.example.com', type: 'email' }, 'type must be one of: webhook'],
    ['unknown field', { url: 'https://x.example.com', events: ['all'] }, 'events is not an allowed field'],
  ])('POST %s: the 400 names the problem, before the service', async (_case, body, message) => {
    expectError(await slice.post('/api/v1/notifications', body), 400, message);
    expect(service.calls).toEqual([]);
  });

  it('PATCH: the id and an UpdateNotificationDto of only the fields sent (null kept apart from absent)', async () => {
    await slice.patch('/api/v1/notifications/n-1', { signing_key: null }).expect(200);
    const [id, input, options] = service.only('update') as [string, UpdateNotificationDto, object];
    expect(input).toBeInstanceOf(UpdateNotificationDto);
    expect({ id, value: { ...input }, options }).toEqual({
      id: 'n-1',
      value: { signing_key: null },
      options: { ifMatch: null },
    });
  });

  it.each([
    ['unknown field', { name: 'x' }, 'name is not an allowed field'],
    ['id in the body', { id: 'other' }, 'id is not an allowed field'],
    ['type email', { type: 'email' }, 'type must be one of: webhook'],
    ['url null', { url: null }, 'url must not be null'],
  ])('PATCH %s → 400 naming it', async (_case, body, message) => {
    expectError(await slice.patch('/api/v1/notifications/n-1', body), 400, message);
  });

  it('GET ?failing=false&page=2: the service is handed a NotificationListQueryDto with the filter as text', async () => {
    await slice.get('/api/v1/notifications?failing=false&page=2').expect(200);
    const [query] = service.only('list') as [NotificationListQueryDto];
    expect(query).toBeInstanceOf(NotificationListQueryDto);
    expect({ ...query }).toEqual({ page: 2, per_page: 10, failing: 'false' });
  });

  it('an id the rules refuse → 404 before the service', async () => {
    expectError(await slice.get(`/api/v1/notifications/${'x'.repeat(300)}`), 404, 'Notification not found');
    expect(service.calls).toEqual([]);
  });

  it.each([
    ['page=-1', 'page must be a whole number of at least 1'],
    ['per_page=101', 'per_page must be a whole number from 1 to 100'],
    ['sort=id', 'sort is not an allowed field'],
    ['failing=yes', 'failing must be one of: true, false'],
  ])('GET ?%s → 400 before the service', async (query, message) => {
    expectError(await slice.get(`/api/v1/notifications?${query}`), 400, message);
    expect(service.calls).toEqual([]);
  });
});
