import type { SignerAddresses, SignerSummary } from '../catalogue';
import { SignerResponse } from './dto/signer.dto';
import {
  maskShownConfig,
  type HostedSignerType,
  type ShownConfig,
} from './key-services/hosted-signer-config';
import type { SignerEntity } from './signer.entity';

export function toSignerResponse(id: string, addresses: SignerAddresses): SignerResponse {
  return { id, type: 'local', config: {}, addresses: { ...addresses } };
}

export function toStoredSignerResponse(row: SignerEntity): SignerResponse {
  if (row.type === 'plain' || row.config === null) return toSignerResponse(row.id, row.addresses);
  const { id, type } = row;
  return { id, type, config: maskShownConfig(type, row.config), addresses: { ...row.addresses } };
}

export function toCatalogueSignerResponse({ id, addresses, hosted }: SignerSummary): SignerResponse {
  if (!hosted) return toSignerResponse(id, addresses);
  const { type, config } = hosted;
  return {
    id,
    type: type as HostedSignerType,
    config: maskShownConfig(type as HostedSignerType, config as ShownConfig),
    addresses: { ...hosted.addresses },
  };
}
