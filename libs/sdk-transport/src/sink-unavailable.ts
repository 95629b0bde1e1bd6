/** The bus (or the in-process writer) cannot take a batch now: the client should retry (503). */
export class SinkUnavailableError extends Error {}
