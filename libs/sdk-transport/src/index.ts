export { IngestCorsMiddleware } from './cors.middleware';
export { createGatewayPublisher, GATEWAY_PRODUCERS } from './gateway-publisher';
export { flag, queryOf, send } from './http-request';
export { IngestError } from './ingest-errors';
export { BadBodyError, readRequestBody } from './request-body';
export { decodeDataField, decodeUtf8RepairingSurrogates, parseEventsJson, readSdkRequest, SdkRequest } from './sdk-payload';
export { jsonReply, Reply, retryAfterHeader, SdkReplyOptions, sdkFailure, sdkReply, STATUS_TEXT } from './sdk-replies';
export { SinkUnavailableError } from './sink-unavailable';
