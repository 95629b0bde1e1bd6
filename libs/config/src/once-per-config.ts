import { AppConfig } from './app-config';

/**
 * `build` run once per config object: a module that several rows of one process mount (the
 * intakes, the jobs module) must be the same object each time, or Nest mounts it twice (its
 * metrics would register twice, its workers start twice).
 */
export function oncePerConfig<T extends object>(build: (config: AppConfig) => T): (config: AppConfig) => T {
  const built = new WeakMap<AppConfig, T>();
  return (config) => {
    const existing = built.get(config);
    if (existing) return existing;
    const made = build(config);
    built.set(config, made);
    return made;
  };
}
