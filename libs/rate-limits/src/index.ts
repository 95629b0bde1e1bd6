export { clientAddressKey } from './client-address';
export { QuerySignal, QueryQuotaInterceptor } from './query-quota.interceptor';
export { RateLimit, RateLimitDecision, RateLimiterFactory, RequestQuota } from './rate-limiter.factory';
export { RateLimitsModule } from './rate-limits.module';
