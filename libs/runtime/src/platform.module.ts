import { ClickHouseModule } from '@analytics/clickhouse';
import { ClockModule } from '@analytics/clock';
import { AppConfig, ConfigModule } from '@analytics/config';
import { UnknownRoutesModule } from '@analytics/http';
import { KafkaModule } from '@analytics/kafka';
import { EngineName, ObservabilityModule } from '@analytics/observability';
import { PostgresModule } from '@analytics/postgres';
import { DynamicModule, Module, Type } from '@nestjs/common';
import { MigrateOnStartModule } from './migrate-on-start.module';

export interface EngineNeeds {
  clickhouse?: boolean;
  postgres?: boolean;
  kafka?: boolean;
}

/** The shared foundation of every service: config, clock and ids, the engines it needs, migrations, observability. */
@Module({})
export class PlatformModule {
  /** `ready`: the engines the services cannot serve without, which readiness probes (default: every one opened). */
  static forRoot(config: AppConfig, needs: EngineNeeds, ready: EngineNeeds = needs): DynamicModule {
    const readyEngines = (Object.keys(ready) as EngineName[]).filter((engine) => ready[engine] && needs[engine]);
    const imports: (DynamicModule | Type<unknown>)[] = [
      ConfigModule.forRoot(config),
      ClockModule,
      ObservabilityModule.forRoot(config, readyEngines),
    ];
    if (needs.clickhouse) imports.push(ClickHouseModule);
    if (needs.postgres) imports.push(PostgresModule);
    if (needs.kafka) imports.push(KafkaModule.forRoot(config));
    // Last: unknown paths answer in their API family's error shape, never Nest's default body.
    imports.push(MigrateOnStartModule, UnknownRoutesModule);
    return { module: PlatformModule, imports, exports: [ConfigModule] };
  }
}
