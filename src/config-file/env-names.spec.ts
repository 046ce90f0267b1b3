import { EnvNames } from './env-names';

/** The names given to `[prefix, id, field]` secrets, declared in this order. */
function namesOf(secrets: ReadonlyArray<readonly [string, string, string]>): string[] {
  const env = new EnvNames();
  const references = secrets.map(([prefix, id, field]) => env.reference(prefix, id, field));
  env.assign();
  return references.map((reference) => reference.value);
}

describe('EnvNames', () => {
  it.each([
    [
      'distinct ids keep their names',
      [
        ['SIGNER', 'a', 'KEY'],
        ['SIGNER', 'b', 'KEY'],
      ],
      ['SIGNER_A_KEY', 'SIGNER_B_KEY'],
    ],
    [
      'ids that map to one name: the first by id keeps it, whatever the order of the list',
      [
        ['NOTIFICATION', 'n-a', 'SIGNING_KEY'],
        ['NOTIFICATION', 'N_A', 'SIGNING_KEY'],
      ],
      ['NOTIFICATION_N_A_SIGNING_KEY_2', 'NOTIFICATION_N_A_SIGNING_KEY'],
    ],
    [
      'three on one name',
      [
        ['SIGNER', 'x.y', 'KEY'],
        ['SIGNER', 'X-Y', 'KEY'],
        ['SIGNER', 'x_y', 'KEY'],
      ],
      ['SIGNER_X_Y_KEY_2', 'SIGNER_X_Y_KEY', 'SIGNER_X_Y_KEY_3'],
    ],
    [
      'a suffixed name never takes another secret’s own name',
      [
        ['SIGNER', 'a', 'KEY_2'],
        ['SIGNER', 'a', 'KEY'],
        ['SIGNER', 'A', 'KEY'],
      ],
      ['SIGNER_A_KEY_2', 'SIGNER_A_KEY_3', 'SIGNER_A_KEY'],
    ],
    [
      'an id and a field that meet in one name',
      [
        ['SIGNER', 'k', 'SECRET_KEY'],
        ['SIGNER', 'k-secret', 'KEY'],
      ],
      ['SIGNER_K_SECRET_KEY', 'SIGNER_K_SECRET_KEY_2'],
    ],
  ] as const)('%s', (_case, secrets, expected) => {
    expect(namesOf(secrets)).toEqual(expected);
  });
});

describe('EnvNames with names the file gave', () => {
  it('keeps a given name as it is, never gives it to another secret, and lets one name repeat', () => {
    const env = new EnvNames();
    const given = env.named('NETWORK_EVM_A_RPC_URL_1');
    const again = env.named('NETWORK_EVM_A_RPC_URL_1');
    const made = env.reference('NETWORK', 'evm:a', 'RPC_URL_1');
    const other = env.reference('NETWORK', 'evm:a', 'RPC_URL_2');
    env.assign();
    expect([given, again, made, other].map((reference) => reference.value)).toEqual([
      'NETWORK_EVM_A_RPC_URL_1',
      'NETWORK_EVM_A_RPC_URL_1',
      'NETWORK_EVM_A_RPC_URL_1_2',
      'NETWORK_EVM_A_RPC_URL_2',
    ]);
  });
});
