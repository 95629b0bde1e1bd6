export { clientAddressKey } from './client-address';
export { ConcurrencySlot, ConcurrencySlots, ConcurrencySlotsOptions } from './concurrency-slots';
export { QuerySignal, QueryQuotaInterceptor } from './query-quota.interceptor';
export { RateLimitError, RateLimitErrorCode } from './rate-limit-error';
export { QuotaDecision, QuotaRule, RateLimit, RateLimitDecision, RateLimiterFactory, RateLimitRule, RequestQuota } from './rate-limiter.factory';
export { RateLimitsModule } from './rate-limits.module';
