export { RateLimit, RateLimitDecision, RateLimiterFactory, RateLimitRule } from './rate-limiter.factory';
export { RateLimitsModule } from './rate-limits.module';
