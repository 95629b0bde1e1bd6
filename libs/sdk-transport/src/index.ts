export { IngestCorsMiddleware } from './cors.middleware';
export { createGatewayPublisher } from './gateway-publisher';
export { flag, queryOf, send } from './http-request';
export { IngestError } from './ingest-errors';
export { readRequestBody } from './request-body';
export { parseEventsJson, readSdkRequest } from './sdk-payload';
export { jsonReply, Reply, retryAfterHeader, SdkReplyOptions, sdkFailure, sdkReply, STATUS_TEXT } from './sdk-replies';
export { SinkUnavailableError } from './sink-unavailable';
