/** The deployable services; `SERVICES` picks among them for the standalone process. */
export const SERVICE_NAMES = ['ingest', 'writer', 'query', 'export', 'management', 'compliance'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
