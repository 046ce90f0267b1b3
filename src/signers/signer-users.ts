import { Injectable } from '@nestjs/common';
import { ReferenceRegistry } from '../common/references/reference-registry';

/** Who uses a signer (relayers): one in use cannot be deleted (docs/reference/networks-and-signers.md#3-signers). */
@Injectable()
export class SignerUsersRegistry extends ReferenceRegistry {}
