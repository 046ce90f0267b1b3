// The alert channels' public face: what other features import (docs/architecture.md).
export { AlertChannelsService } from './alert-channels.service';
export { AlertChannelCreateRules, AlertChannelPatchRules } from './alert-channels.validation';
export type { ChannelConfig } from './send/channel-config';
