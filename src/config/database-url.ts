import path from 'node:path';
import type { DatabaseConfig } from './app-config';

/** The error never shows the value: it may hold a password. */
export function parseDatabaseUrl(value: string): DatabaseConfig {
  if (value.startsWith('sqlite:')) {
    const file = value.slice('sqlite:'.length);
    if (file === '') throw new Error('DATABASE_URL sqlite: needs a path, e.g. sqlite:./data/relayer.sqlite');
    return { kind: 'sqlite', path: file === ':memory:' ? file : path.resolve(file) };
  }
  if (value.startsWith('mysql://')) {
    const url = URL.parse(value);
    if (!url || !url.hostname || url.pathname.length <= 1) {
      throw new Error('DATABASE_URL must look like mysql://user:password@host:3306/database');
    }
    return { kind: 'mysql', url: value };
  }
  throw new Error('DATABASE_URL must start with sqlite: or mysql://');
}
