const SECRET_KEYS = Symbol('secretEnvironmentKeys');

/** Marks an environment variable whose value (or URL password) must never reach a log. */
export function Secret(): PropertyDecorator {
  return (target, key) => {
    const holder = target as { [SECRET_KEYS]?: Set<string | symbol> };
    holder[SECRET_KEYS] = new Set([...(holder[SECRET_KEYS] ?? []), key]);
  };
}

export function isSecret(target: object, key: string): boolean {
  return (target as { [SECRET_KEYS]?: Set<string | symbol> })[SECRET_KEYS]?.has(key) ?? false;
}

/** Hides a secret: a URL keeps its shape with the password replaced, anything else becomes `***`. */
export function maskSecret(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'chdb:' || url.protocol === 'pglite:') return value;
    if (url.password) url.password = '***';
    else if (!url.host) return '***';
    return url.toString();
  } catch {
    return '***';
  }
}
