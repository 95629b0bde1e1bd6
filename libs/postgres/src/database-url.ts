export type DatabaseTarget = { kind: 'pglite'; path: string } | { kind: 'server'; url: string };

/** `pglite:<dir>` is Postgres in-process (WASM); `pglite:memory:` keeps nothing; `postgres://…` a server. */
export function parseDatabaseUrl(value: string): DatabaseTarget {
  if (value.startsWith('pglite:')) {
    const path = value.slice('pglite:'.length);
    if (!path) throw new Error('DATABASE_URL pglite: needs a directory (or memory:), as in pglite:./data/postgres');
    return { kind: 'pglite', path };
  }
  if (!/^postgres(ql)?:\/\//.test(value))
    throw new Error('DATABASE_URL must start with postgres://, postgresql:// or pglite:');
  return { kind: 'server', url: value };
}
