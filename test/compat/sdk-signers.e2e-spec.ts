import { SignerTypeRequest, type SignerCreateRequest } from '@openzeppelin/relayer-sdk';
import { randomBytes } from 'node:crypto';
import { successBody } from '../support/envelope';
import { defaultCatalogue, useTestApp } from '../support/test-app';
import { KEY1 } from '../support/test-catalogue';
import { NETWORK, signerKey, uid, UUID_V4 } from '../factories';
import {
  encryptionKey,
  sdkFor,
  refusal,
  refused,
  answer,
  addressesOf,
  SDK_NETWORK_TYPE,
  KEY1_SIGNER,
} from './sdk';

describe('Signers: SignersApi get, create, update, delete (docs/reference/networks-and-signers.md#3-signers)', () => {
  const handle = useTestApp({ STORAGE_ENCRYPTION_KEY: encryptionKey });
  const sdk = () => sdkFor(handle.current);
  const plain = (key: string, id?: string): SignerCreateRequest => ({
    ...(id === undefined ? {} : { id }),
    type: SignerTypeRequest.PLAIN,
    config: { key },
  });
  const signerOf = (id: string, key: string) => ({
    id,
    type: 'local',
    config: {},
    addresses: addressesOf(key),
  });

  it('getSigner of a file signer → 200 {id, type: "local", config: {}, addresses}', async () => {
    expect(answer(await sdk().signers.getSigner(KEY1.id))).toEqual({
      status: 200,
      body: successBody(KEY1_SIGNER),
    });
  });

  it('getSigner of an unknown id → 404', async () => {
    expect(await refusal(sdk().signers.getSigner('no-such-signer'))).toEqual(
      refused(404, 'Signer with ID no-such-signer not found'),
    );
  });

  it('createSigner (plain) → 201 with the SignerResponse and the key addresses; the key never shown', async () => {
    const id = uid('signer');
    const key = signerKey();
    const created = await sdk().signers.createSigner(plain(key, id));
    expect(answer(created)).toEqual({ status: 201, body: successBody(signerOf(id, key)) });
    expect(JSON.stringify(created.data)).not.toContain(key);
    expect(answer(await sdk().signers.getSigner(id))).toEqual({ status: 200, body: created.data });
  });

  it('createSigner with a 0x key and no id → a UUID v4 id', async () => {
    const key = signerKey();
    const created = await sdk().signers.createSigner(plain(`0x${key}`));
    expect(answer(created)).toEqual({
      status: 201,
      body: successBody({ ...signerOf('', key), id: UUID_V4 }),
    });
  });

  it('a signer created through the SDK serves relayers of every network type at its addresses', async () => {
    const id = uid('signer');
    const key = signerKey();
    await sdk().signers.createSigner(plain(key, id));
    for (const type of ['evm', 'solana', 'stellar'] as const) {
      const relayer = await sdk().relayers.createRelayer({
        id: uid('relayer'),
        name: `on ${type}`,
        network: NETWORK[type],
        network_type: SDK_NETWORK_TYPE[type],
        paused: false,
        signer_id: id,
      });
      expect({ status: relayer.status, address: relayer.data.data?.address }).toEqual({
        status: 201,
        address: addressesOf(key)[type],
      });
    }
  });

  const KEY_SHAPE = 'config.key must be 32 bytes as 64 hex characters (0x allowed)';
  const KEY_VALUE = 'config.key must be a valid secp256k1 private key: not zero and below the curve order';
  it.each([
    ['31 bytes', randomBytes(31).toString('hex'), KEY_SHAPE],
    ['33 bytes', randomBytes(33).toString('hex'), KEY_SHAPE],
    ['not hex', 'zz'.repeat(32), KEY_SHAPE],
    ['nothing', '', KEY_SHAPE],
    ['all zeros', '00'.repeat(32), KEY_VALUE],
    ['all ones (above the curve order)', 'ff'.repeat(32), KEY_VALUE],
  ])('createSigner with a key of %s → 400 naming config.key', async (_case, key, message) => {
    expect(await refusal(sdk().signers.createSigner(plain(key, uid('signer'))))).toEqual(
      refused(400, message),
    );
  });

  it('createSigner with an id used in the database or in the file → 409', async () => {
    const id = uid('signer');
    await sdk().signers.createSigner(plain(signerKey(), id));
    expect(await refusal(sdk().signers.createSigner(plain(signerKey(), id)))).toEqual(
      refused(409, 'Signer with this ID already exists'),
    );
    expect(await refusal(sdk().signers.createSigner(plain(signerKey(), KEY1.id)))).toEqual(
      refused(409, 'Signer with this ID already exists'),
    );
  });

  it('updateSigner → 400: a key never changes under a relayer', async () => {
    const id = uid('signer');
    const key = signerKey();
    await sdk().signers.createSigner(plain(key, id));
    expect(await refusal(sdk().signers.updateSigner(id, { config: { key: signerKey() } }))).toEqual(
      refused(400, 'Signer updates are not allowed: delete the signer and create a new one'),
    );
    expect((await sdk().signers.getSigner(id)).data).toEqual(successBody(signerOf(id, key)));
  });

  it('deleteSigner → 200 "Signer deleted successfully", then 404', async () => {
    const id = uid('signer');
    await sdk().signers.createSigner(plain(signerKey(), id));
    expect(answer(await sdk().signers.deleteSigner(id))).toEqual({
      status: 200,
      body: successBody('Signer deleted successfully'),
    });
    const notFound = refused(404, `Signer with ID ${id} not found`);
    expect(await refusal(sdk().signers.getSigner(id))).toEqual(notFound);
    expect(await refusal(sdk().signers.deleteSigner(id))).toEqual(notFound);
  });

  it('deleteSigner of one relayers use → 409 naming them; free again → 200', async () => {
    const id = uid('signer');
    await sdk().signers.createSigner(plain(signerKey(), id));
    const relayers: string[] = [];
    for (const type of ['evm', 'stellar'] as const) {
      const relayer = uid('relayer');
      relayers.push(relayer);
      await sdk().relayers.createRelayer({
        id: relayer,
        name: 'uses the signer',
        network: NETWORK[type],
        network_type: SDK_NETWORK_TYPE[type],
        paused: false,
        signer_id: id,
      });
    }
    const namesBoth = new RegExp(relayers.map((relayer) => `(?=.*\\b${relayer}\\b)`).join(''));
    expect(await refusal(sdk().signers.deleteSigner(id))).toEqual(refused(409, namesBoth));
    for (const relayer of relayers) await sdk().relayers.deleteRelayer(relayer);
    expect((await sdk().signers.deleteSigner(id)).data).toEqual(successBody('Signer deleted successfully'));
  });

  it('deleteSigner of a file signer → 409', async () => {
    const id = defaultCatalogue().pool[defaultCatalogue().pool.length - 1];
    expect(await refusal(sdk().signers.deleteSigner(id))).toEqual(
      refused(409, `Signer ${id} is defined in the configuration file`),
    );
    expect((await sdk().signers.getSigner(id)).status).toBe(200);
  });

  it('deleteSigner of an unknown id → 404', async () => {
    expect(await refusal(sdk().signers.deleteSigner('no-such-signer'))).toEqual(
      refused(404, 'Signer with ID no-such-signer not found'),
    );
  });
});
