// Writes an Ethereum v3 keystore holding a new random key, for a `local` signer of the catalogue:
//   KEYSTORE_PASSPHRASE='...' npm run keystore:create -- --out config/keys/signer-1.json [--passphrase-env VAR] [--scrypt-n N]
// Prints the address and the path only: the key and the passphrase never reach the terminal.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Wallet, encryptKeystoreJson, hexlify, randomBytes } from 'ethers';

const DEFAULT_PASSPHRASE_VARIABLE = 'KEYSTORE_PASSPHRASE';
// The service's own default and range (src/common/security/keystore.ts).
const [DEFAULT_SCRYPT_N, MIN_SCRYPT_N, MAX_SCRYPT_N] = [131072, 1024, 1048576];
const USAGE = `usage: npm run keystore:create -- --out <file> [--passphrase-env <VARIABLE>] [--scrypt-n <N>]
  --out             where to write the keystore (never overwritten)
  --passphrase-env  environment variable holding the passphrase (default ${DEFAULT_PASSPHRASE_VARIABLE})
  --scrypt-n        scrypt's cost, a power of two from ${MIN_SCRYPT_N} to ${MAX_SCRYPT_N} (default ${DEFAULT_SCRYPT_N}; lower only for throwaway keys)`;

function exitWithUsage(message) {
  console.error(`${message}\n${USAGE}`);
  process.exit(1);
}

function readOptions() {
  try {
    return parseArgs({
      options: {
        out: { type: 'string' },
        'passphrase-env': { type: 'string', default: DEFAULT_PASSPHRASE_VARIABLE },
        'scrypt-n': { type: 'string', default: String(DEFAULT_SCRYPT_N) },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values;
  } catch (error) {
    return exitWithUsage(error.message);
  }
}

const options = readOptions();
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!options.out) exitWithUsage('--out is required');
const scryptN = Number(options['scrypt-n']);
if (
  !/^\d+$/.test(options['scrypt-n']) ||
  scryptN < MIN_SCRYPT_N ||
  scryptN > MAX_SCRYPT_N ||
  (scryptN & (scryptN - 1)) !== 0
)
  exitWithUsage(`--scrypt-n must be a power of two from ${MIN_SCRYPT_N} to ${MAX_SCRYPT_N}`);
const passphraseVariable = options['passphrase-env'];
const passphrase = process.env[passphraseVariable];
if (!passphrase) exitWithUsage(`the environment variable ${passphraseVariable} must hold the passphrase`);

// npm runs scripts from the project root; INIT_CWD is where the user typed the command.
const outFile = path.resolve(process.env.INIT_CWD ?? process.cwd(), options.out);
const wallet = new Wallet(hexlify(randomBytes(32)));
const keystore = await encryptKeystoreJson(
  { address: wallet.address, privateKey: wallet.privateKey },
  passphrase,
  {
    scrypt: { N: scryptN },
  },
);

await mkdir(path.dirname(outFile), { recursive: true });
try {
  await writeFile(outFile, `${keystore}\n`, { mode: 0o600, flag: 'wx' });
} catch (error) {
  if (error.code === 'EEXIST') exitWithUsage(`${outFile} already exists: a keystore is never overwritten`);
  throw error;
}
console.log(`address: ${wallet.address}`);
console.log(`keystore: ${outFile}`);
