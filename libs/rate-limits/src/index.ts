export { clientAddressKey } from './client-address';
export { QuerySignal, QueryQuotaInterceptor } from './query-quota.interceptor';
export { RateLimit, RateLimitDecision, RateLimiterFactory } from './rate-limiter.factory';
export { RateLimitsModule } from './rate-limits.module';
export { CONSOLE_CLIENT_HEADER, ReadingQuota } from './reading-quota';
