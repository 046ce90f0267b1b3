import path from 'node:path';
import { z } from 'zod';
import { issueLines } from './zod-issues';

export type DatabaseConfig =
  { readonly kind: 'sqlite'; readonly path: string } | { readonly kind: 'mysql'; readonly url: string };

/** DATABASE_URL's rule: the messages follow the variable's name and never show the value (it may hold a password). */
export const databaseUrl = z.string().transform((value, ctx): DatabaseConfig => {
  if (value.startsWith('sqlite:')) {
    const file = value.slice('sqlite:'.length);
    if (file !== '') return { kind: 'sqlite', path: file === ':memory:' ? file : path.resolve(file) };
    ctx.addIssue('sqlite: needs a path, e.g. sqlite:./data/relayer.sqlite');
  } else if (value.startsWith('mysql://')) {
    const url = URL.parse(value);
    if (url?.hostname && url.pathname.length > 1) return { kind: 'mysql', url: value };
    ctx.addIssue('must look like mysql://user:password@host:3306/database');
  } else {
    ctx.addIssue('must start with sqlite: or mysql://');
  }
  return z.NEVER;
});

export function parseDatabaseUrl(value: string): DatabaseConfig {
  const result = databaseUrl.safeParse(value);
  if (!result.success) throw new Error(issueLines(result.error.issues[0], { root: 'DATABASE_URL' })[0]);
  return result.data;
}
