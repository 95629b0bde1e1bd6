import { AppConfig } from '@analytics/config';
import { Module } from '@nestjs/common';
import { OutboundPolicy } from './outbound-policy';

/** The installation's outbound policy, from OUTBOUND_ALLOWED_NETWORKS. */
@Module({
  providers: [
    {
      provide: OutboundPolicy,
      useFactory: (config: AppConfig) => new OutboundPolicy(config.outboundAllowedNetworks),
      inject: [AppConfig],
    },
  ],
  exports: [OutboundPolicy],
})
export class OutboundModule {}
