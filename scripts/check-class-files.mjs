// `npm run check`: every exported class of src/ is in the file its name suggests, the kebab-case of the
// class (DatabaseLifecycle in database-lifecycle.ts), with Nest's suffix as the file's own
// (RelayersService in relayers.service.ts). A file of one kind may hold several (DTOs in *.dto.ts, errors
// in *.errors.ts, rules in *.validation.ts), an error class sits beside the function that throws it, and
// a file named after one class may hold the small classes it uses (SecretKey beside Catalogue).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const SUFFIXES = ['module', 'controller', 'service', 'repository', 'guard', 'interceptor', 'pipe', 'filter'];
SUFFIXES.push('middleware', 'entity', 'dto', 'errors');
/** Files left as they are, with the reason. */
const ALLOWED = new Map([]);

const kebab = (name) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();

function named(base, name) {
  const k = kebab(name);
  return (
    base === k || SUFFIXES.some((s) => k.endsWith(`-${s}`) && base === `${k.slice(0, -s.length - 1)}.${s}`)
  );
}

function ofItsKind(base, name) {
  if (base.endsWith('.dto')) return true;
  if (/(\.|-)errors$/.test(base)) return /(Error|Answer)$/.test(name);
  if (base.endsWith('.validation')) return name.endsWith('Rules');
  return false;
}

const files = execFileSync('git', ['ls-files', 'src'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts') && !f.includes('/migrations/'));
const misplaced = [];
for (const file of files) {
  const full = path.join(root, file);
  if (!fs.existsSync(full) || ALLOWED.has(file)) continue;
  const base = path.basename(file, '.ts');
  const classes = [...fs.readFileSync(full, 'utf8').matchAll(/^export (?:abstract )?class (\w+)/gm)].map(
    (m) => m[1],
  );
  const hasNamesake = classes.some((name) => named(base, name));
  for (const name of classes) {
    if (named(base, name) || ofItsKind(base, name) || name.endsWith('Error')) continue;
    if (hasNamesake) continue;
    misplaced.push(`${file}: class ${name} (expected in ${kebab(name)}.ts)`);
  }
}
if (misplaced.length > 0) {
  process.stderr.write(`Classes not in the file their name suggests:\n${misplaced.join('\n')}\n`);
  process.exit(1);
}
