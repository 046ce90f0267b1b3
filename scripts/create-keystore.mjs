// Writes an Ethereum v3 keystore holding a new random key, for a `local` signer of the catalogue:
//   KEYSTORE_PASSPHRASE='...' npm run keystore:create -- --out config/keys/signer-1.json [--passphrase-env VAR]
// Prints the address and the path only: the key and the passphrase never reach the terminal.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Wallet, hexlify, randomBytes } from 'ethers';

const DEFAULT_PASSPHRASE_VARIABLE = 'KEYSTORE_PASSPHRASE';
const USAGE = `usage: npm run keystore:create -- --out <file> [--passphrase-env <VARIABLE>]
  --out             where to write the keystore (never overwritten)
  --passphrase-env  environment variable holding the passphrase (default ${DEFAULT_PASSPHRASE_VARIABLE})`;

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
const passphraseVariable = options['passphrase-env'];
const passphrase = process.env[passphraseVariable];
if (!passphrase) exitWithUsage(`the environment variable ${passphraseVariable} must hold the passphrase`);

// npm runs scripts from the project root; INIT_CWD is where the user typed the command.
const outFile = path.resolve(process.env.INIT_CWD ?? process.cwd(), options.out);
const wallet = new Wallet(hexlify(randomBytes(32)));
const keystore = await wallet.encrypt(passphrase);

await mkdir(path.dirname(outFile), { recursive: true });
try {
  await writeFile(outFile, `${keystore}\n`, { mode: 0o600, flag: 'wx' });
} catch (error) {
  if (error.code === 'EEXIST') exitWithUsage(`${outFile} already exists: a keystore is never overwritten`);
  throw error;
}
console.log(`address: ${wallet.address}`);
console.log(`keystore: ${outFile}`);
