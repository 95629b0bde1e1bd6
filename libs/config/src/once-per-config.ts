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

/**
 * Where an intake (events, profile updates) hands what it accepted: to Kafka (`broker`), or without a
 * broker to the writers in this process before it answers. The service map decides, from KAFKA_BROKERS.
 */
export interface IntakeOptions {
  broker: boolean;
}

/** `build` run once per transport: the gateway and a worker of one process mount one intake (its metrics register once). */
export function oncePerIntake<T extends object>(build: (options: IntakeOptions) => T): (options: IntakeOptions) => T {
  const built = new Map<boolean, T>();
  return ({ broker }) => {
    const existing = built.get(broker);
    if (existing) return existing;
    const made = build({ broker });
    built.set(broker, made);
    return made;
  };
}
