import { Module } from '@nestjs/common';
import { IdentitiesConsumer } from './identities.consumer';
import { IdentityMetrics } from './identity-metrics';
import { IdentityRepository } from './identity.repository';
import { IdentityWriter } from './identity-writer.service';

/** The identity mapping (docs/identity.md): its repository and writer. */
@Module({
  providers: [IdentityRepository, IdentityMetrics, IdentityWriter],
  exports: [IdentityRepository, IdentityWriter, IdentityMetrics],
})
export class IdentityModule {}

/** The consumer of the identities topic: the service map mounts it where the writer runs with a broker. */
@Module({ imports: [IdentityModule], controllers: [IdentitiesConsumer] })
export class IdentitiesConsumerModule {}
