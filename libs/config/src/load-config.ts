import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, ValidationError, validateSync } from 'class-validator';
import { AppConfig } from './app-config';
import { Environment } from './environment';
import { kafkaProblems } from './kafka-settings';
import { isSecret, maskSecret } from './secret.decorator';

type RawEnvironment = Record<string, string | undefined>;

/** Thrown with every invalid variable listed, so one start reports all of them at once. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** The names of every variable {@link Environment} declares. */
export function environmentVariableNames(): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(Environment, '', true, false);
  return [...new Set(metadata.map((m) => m.propertyName))].sort();
}

function pickKnown(env: RawEnvironment): RawEnvironment {
  const known: RawEnvironment = {};
  for (const name of environmentVariableNames()) if (env[name] !== undefined) known[name] = env[name];
  return known;
}

function shown(name: string, value: string): string {
  return isSecret(Environment.prototype, name) ? maskSecret(value) : value;
}

function describeProblem(error: ValidationError, raw: RawEnvironment): string {
  const messages = [...new Set(Object.values(error.constraints ?? {}))];
  const got = raw[error.property];
  return `${error.property} ${messages.join('; ')}${got === undefined ? '' : ` (got "${shown(error.property, got)}")`}`;
}

/** Validates the environment once; throws {@link ConfigError} naming every bad variable. */
export function loadConfig(env: RawEnvironment = process.env): AppConfig {
  const raw = pickKnown(env);
  const parsed = plainToInstance(Environment, raw);
  const errors = validateSync(parsed, { whitelist: true, forbidNonWhitelisted: false });
  if (errors.length) throw new ConfigError(errors.map((e) => describeProblem(e, raw)));
  const kafka = kafkaProblems(parsed);
  if (kafka.length) throw new ConfigError(kafka);
  const config = new AppConfig(parsed);
  // Node refuses a header timeout above the request timeout, in its own words and at listen time.
  if (config.http.requestTimeoutMs < config.http.headersTimeoutMs) {
    throw new ConfigError([
      `HTTP_REQUEST_TIMEOUT_MS must be at least HTTP_HEADERS_TIMEOUT_MS (${config.http.headersTimeoutMs}): the headers are part of the request (got "${config.http.requestTimeoutMs}")`,
    ]);
  }
  const hosts = config.queryRegionHosts.map(({ host }) => host);
  const repeated = hosts.find((host, i) => hosts.indexOf(host) !== i);
  if (repeated)
    throw new ConfigError([
      `QUERY_REGION_HOSTS names ${repeated} twice: a host serves one region (got "${env.QUERY_REGION_HOSTS}")`,
    ]);
  return config;
}

/** The environment as it may be logged: secrets masked, unset variables left out. */
export function describeEnvironment(env: RawEnvironment = process.env): Record<string, string> {
  const described: Record<string, string> = {};
  for (const [name, value] of Object.entries(pickKnown(env))) if (value) described[name] = shown(name, value);
  return described;
}
