import fs from 'node:fs';
import path from 'node:path';

/**
 * The folder of the service's own package.json: the first one above this file, from src/ in
 * development and tests as from dist/src/ in a build or an installed package (nothing copies
 * package.json into dist/).
 */
export const PACKAGE_ROOT = findPackageRoot(__dirname);

/** The service's version (package.json): the webhook User-Agent names it. */
export const PACKAGE_VERSION = (
  JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

/** The configuration file shipped with the package (docs/reference/config-file.md#11-where-the-file-is). */
export const SHIPPED_CONFIG_FILE = path.join(PACKAGE_ROOT, 'config', 'config.json');

function findPackageRoot(from: string): string {
  for (let folder = from; ; folder = path.dirname(folder)) {
    if (fs.existsSync(path.join(folder, 'package.json'))) return folder;
    if (path.dirname(folder) === folder) throw new Error(`no package.json above ${from}`);
  }
}
