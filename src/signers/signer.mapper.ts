import type { SignerAddresses, SignerSummary } from '../catalogue/catalogue.service';
import { SignerResponse } from './dto/signer.dto';
import type { HostedSignerType, ShownConfig } from './key-services/hosted-signer-config';
import type { SignerEntity } from './signer.entity';

export function toSignerResponse(id: string, addresses: SignerAddresses): SignerResponse {
  return { id, type: 'local', config: {}, addresses: { ...addresses } };
}

/** A stored signer: `local` with `{}` for a key it holds; a hosted one's type and non-secret config. */
export function toStoredSignerResponse(row: SignerEntity): SignerResponse {
  if (row.type === 'plain' || row.config === null) return toSignerResponse(row.id, row.addresses);
  return { id: row.id, type: row.type, config: row.config, addresses: { ...row.addresses } };
}

/** A signer of the configuration file: `local`, or a hosted one's type and non-secret config. */
export function toCatalogueSignerResponse(signer: SignerSummary): SignerResponse {
  if (!signer.hosted) return toSignerResponse(signer.id, signer.addresses);
  const { type, config, addresses } = signer.hosted;
  return {
    id: signer.id,
    type: type as HostedSignerType,
    config: config as ShownConfig,
    addresses: { ...addresses },
  };
}
