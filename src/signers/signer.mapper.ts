import { type SignerAddresses } from '../catalogue/catalogue.service';
import { SignerResponse } from './dto/signer.dto';

export function toSignerResponse(id: string, addresses: SignerAddresses): SignerResponse {
  return { id, type: 'local', config: {}, addresses: { ...addresses } };
}
