import { Global, Module } from '@nestjs/common';
import { RateLimiterFactory } from './rate-limiter.factory';

@Global()
@Module({ providers: [RateLimiterFactory], exports: [RateLimiterFactory] })
export class RateLimitsModule {}
