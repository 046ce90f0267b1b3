// The package's public entry point (docs/extending.md): every export is covered by semver and listed in
// etc/public-api.md, which `npm run check` compares.
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AppExtensions } from './app.module';
import { configureHttpServer, createApp as createServiceApp } from './bootstrap';
import type { AppConfig } from './config/app-config';

/** What an extension adds: its modules, their permissions, entities and migrations, and the providers it replaces. */
export type ExtensionOptions = AppExtensions;

/** The service as `npm start` runs it, with the extension's modules; `exitGracefullyOnSignals` drains it. */
export async function createApp(
  config: AppConfig,
  options: ExtensionOptions = {},
): Promise<NestExpressApplication> {
  const app = await createServiceApp(config, options);
  configureHttpServer(app, config);
  return app;
}

export { exitGracefullyOnSignals } from './bootstrap';
export { ConfigError, loadConfig, type AppConfig, type Env } from './config/app-config';

// Authentication and permissions
export { Public } from './common/auth/public.decorator';
export { RequirePermission, type RequiredPermission } from './common/auth/require-permission.decorator';
export { UndeclaredPermissionError } from './common/auth/route-permissions';
export { CurrentPrincipal } from './common/auth/current-principal.decorator';
export {
  PERMISSIONS,
  type ExtensionPermission,
  type Grant,
  type Permission,
  type Principal,
  type RoleGrant,
} from './common/auth/principal';

// Tables and resources of an extension (docs/reference/extension-events.md)
export { declareResource, type ResourceDeclaration } from './common/auth/resources';

// Feature modules and the services they export
export { RelayersModule } from './relayers/relayers.module';
export { RelayersService } from './relayers';
export { NotificationsModule } from './notifications/notifications.module';
export {
  NotificationsService,
  ALERT_CHANNELS,
  WEBHOOK_TARGETS,
  type DeliveryTarget,
  type DeliveryTargetType,
  type TargetKind,
} from './notifications';
export { SignersModule } from './signers/signers.module';
export { SignersService } from './signers';
export { NetworksModule } from './networks/networks.module';
export { NetworksService } from './networks';
export { CatalogueModule } from './config-file/catalogue.module';
export { Catalogue } from './catalogue';

// Change events, and writing in the transaction of a change
export {
  RELAYER_EVENTS,
  type PatchableField,
  type RelayerEvent,
  type RelayerBalanceEvent,
  type RelayerStateChangedEvent,
  type RelayerUpdatedEvent,
} from './relayers/relayer-events';
export { ALERT_CHANNEL_EVENTS, type AlertChannelEvent } from './alert-channels/alert-channel-events';
export { AlertChannelResponse } from './alert-channels/dto/alert-channel.dto';
export {
  NOTIFICATION_EVENTS,
  NOTIFICATION_RESUMED,
  type NotificationEvent,
  type NotificationResumedEvent,
} from './notifications/notification-events';
export {
  RelayerResponse,
  RelayerListItemResponse,
  RelayerSummaryResponse,
  DisabledReasonResponse,
  type RelayerSummaryInclude,
} from './relayers/dto/relayer.dto';
export { NotificationResponse, NotificationSummaryResponse } from './notifications/dto/notification.dto';
export {
  CHANGE_RECORDED,
  NestedTransactionError,
  Transactions,
  type Change,
  type CommittingEvent,
  type ReadTx,
  type RunOptions,
  type Tx,
} from './database/transactions';
// One decorator for every subscriber in the transaction, over the map of the events published there
export { OnCommitting, type CommittingEvents } from './database/on-committing';

// Routes of an extension: errors, decorators and the types the public API names
// (docs/reference/extension-events.md#18-routes-of-an-extension)
export {
  BadBodyError,
  ConflictError,
  DomainError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  PreconditionFailedError,
  RetryLaterError,
  ServiceUnavailableError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  ValidationError,
  withStatus,
} from './common/errors/domain-errors';
export type { FieldProblem } from './common/errors/domain-errors';
export { ApiEnvelope, ApiErrors, ApiIfMatch } from './common/http/openapi.decorators';
export { RawResponse } from './common/http/raw-response.decorator';
export { IfMatch, IfMatchHeader } from './common/http/if-match';
export { Tagged, entityTag } from './common/http/tagged';
export { Page, PageQueryDto } from './common/http/page.dto';
export type { UrlPolicyConfig } from './config/app-config';
export type { NetworkType, SignerForNetwork, SignerSummary } from './catalogue/catalogue.types';
export { RpcConfigResponse } from './common/validation/rpc-config.dto';
export type { RpcUrl } from './common/validation/rpc-url-list';
export { NetworkResponse, UpdateNetworkDto } from './networks/dto/network.dto';
export { SignerResponse } from './signers/dto/signer.dto';
export type { NewSigner } from './signers/signers.validation';
export {
  CreateNotificationDto,
  NotificationListQueryDto,
  UpdateNotificationDto,
} from './notifications/dto/notification.dto';
export { RelayerListQueryDto, UpdateRelayerDto, type RelayerSort } from './relayers/dto/relayer.dto';
export type { NewRelayer } from './relayers/relayers.validation';
export type { CatalogueNetwork, CatalogueRpcUrl, HostedSignerView } from './catalogue/catalogue.types';
export { RpcConfigDto } from './common/validation/rpc-config.dto';
export type { Policies, PolicyValue } from './relayers/policies/policy-validation';
export type { HostedSignerConfig, ShownConfig } from './signers/key-services/hosted-signer-config';
export type { ReferenceUsers } from './common/references/reference-registry';

// Replaceable parts: `createApp(config, { overrides: [{ provide, useClass | useValue | useFactory }] })`
// (docs/reference/extension-events.md#3-replaceable-parts)
export { UnknownOverrideError, type ProviderOverride } from './common/modules/provider-overrides';
export { KeyServices } from './signers';
export { addressesOfPublicKey } from './signers/key-services/key-services';
export type { SignerAddresses } from './catalogue';
export {
  EVM_HEALTH_CHECK,
  SOLANA_HEALTH_CHECK,
  STELLAR_HEALTH_CHECK,
  type DisableReasonCode,
  type HealthCheck,
  type HealthCheckTarget,
  type CheckResult,
} from './relayer-health/network-checks';
export { WebhookSender, type AttemptResult } from './webhooks/webhook-sender';
export { ConfigFileLoader, type ConfigFile, type FileEntry } from './config-file/config-file-loader';
