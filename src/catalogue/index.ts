// The catalogue's public face: what other features and extensions import (docs/architecture.md).
export * from './catalogue.types';
export {
  addressesOfKey,
  deriveAddress,
  evmAddressOfPoint,
  isValidSecp256k1PrivateKey,
  stellarAddressOfPublicKey,
  toChecksumAddress,
} from './address-derivation';
export { KEY_LENGTH_BYTES } from './address-derivation';
export {
  Catalogue,
  SecretKey,
  UnknownSignerError,
  fileSignerKeystore,
  type CatalogueSigner,
} from './catalogue';
