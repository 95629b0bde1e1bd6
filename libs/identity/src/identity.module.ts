import { AppConfig } from '@analytics/config';
import { DynamicModule, Module, Provider } from '@nestjs/common';
import { IdentitiesConsumer } from './identities.consumer';
import { IdentityMetrics } from './identity-metrics';
import { IdentityRepository } from './identity.repository';
import { IdentityWriter } from './identity-writer.service';

/**
 * The identity mapping (docs/identity.md): its repository and writer; with a broker and the writer
 * service in this process, the consumer of the identities topic too.
 */
@Module({})
export class IdentityModule {
  static forRoot(config: AppConfig): DynamicModule {
    const providers: Provider[] = [IdentityRepository, IdentityMetrics, IdentityWriter];
    if (config.kafka && config.runs('writer')) providers.push(IdentitiesConsumer);
    return { module: IdentityModule, providers, exports: [IdentityRepository, IdentityWriter] };
  }
}
