// The signers' public face: what other features and extensions import (docs/architecture.md).
/** What the catalogue's loader uses to read the file's hosted signers (docs/reference/kms-signers.md). */
export { FileHostedSigners } from './key-services/file-hosted-signers';
export { isHostedSignerType, secretFields } from './key-services/hosted-signer-config';
export { KeyServices } from './key-services/key-services';
export { SignersService, signerKeystore } from './signers.service';
