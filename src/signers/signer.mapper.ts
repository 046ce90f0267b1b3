import { type SignerAddresses } from '../catalogue/catalogue.service';
import { SignerResponse } from './dto/signer.dto';
import type { SignerEntity } from './signer.entity';

export function toSignerResponse(id: string, addresses: SignerAddresses): SignerResponse {
  return { id, type: 'local', config: {}, addresses: { ...addresses } };
}

/** A stored signer: `local` with `{}` for a key it holds; a hosted one's type and non-secret config. */
export function toStoredSignerResponse(row: SignerEntity): SignerResponse {
  if (row.type === 'plain' || row.config === null) return toSignerResponse(row.id, row.addresses);
  return { id: row.id, type: row.type, config: row.config, addresses: { ...row.addresses } };
}
