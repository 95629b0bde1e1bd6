import { AuthModule } from '@analytics/auth';
import { IntakeOptions, oncePerIntake } from '@analytics/config';
import { jsonBody } from '@analytics/http';
import { IdentityMergeHook, IdentityRepository } from '@analytics/identity';
import { ProfileStoreModule } from '@analytics/profile-store';
import { GroupKeyRegistryModule } from '@analytics/projects';
import { RateLimitsModule } from '@analytics/rate-limits';
import { DynamicModule, Global, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { GroupKeysController } from './group-keys.controller';
import { InProcessProfileSink } from './in-process-profile.sink';
import { KafkaProfileSink } from './kafka-profile.sink';
import { ProfileFolder } from './profile-folder.service';
import { ProfileGeolocator } from './profile-geolocator';
import { ProfileIngestService } from './profile-ingest.service';
import { ProfileMetrics } from './profile-metrics';
import { ProfileUpdateSink } from './profile-update.sink';
import { ProfileUpdatesController } from './profile-updates.controller';
import { ProfileWriter } from './profile-writer.service';
import { ProfilesConsumer } from './profiles.consumer';

/** Metrics are registered once per process, whichever parts it runs. */
@Module({ providers: [ProfileMetrics], exports: [ProfileMetrics] })
class ProfileMetricsModule {}

/**
 * Profile folding after identity merges, as the identity writer's merge hook. Global because the
 * identity lib cannot import this one (profiles already import identity): wherever the identity
 * writer runs in a process that stores profiles, it finds the hook (docs/identity.md, "Profiles").
 */
@Global()
@Module({
  imports: [ProfileStoreModule],
  providers: [{ provide: IdentityMergeHook, useClass: ProfileFolder }],
  exports: [IdentityMergeHook],
})
class ProfileFoldModule {}

/** Applying updates to the profile store (Postgres, then the mirror), with the fold after merges: the writer's and the in-process sink's. */
@Module({
  imports: [ProfileMetricsModule, ProfileStoreModule, ProfileFoldModule],
  providers: [ProfileWriter, IdentityRepository],
  exports: [ProfileStoreModule, ProfileWriter, IdentityRepository],
})
class ApplyProfileUpdatesModule {}

/**
 * Profile intake without HTTP: the /engage and /groups rules and the sink (Kafka, or without a broker
 * applied in-process), as `ProfileIngestService`, for the gateway and for workers (warehouse imports).
 */
@Module({})
export class ProfileIntakeModule {
  /**
   * One module object per transport, so the gateway and a worker in one process share one intake.
   * `broker`: updates go to Kafka; without one they are applied in-process (the service map decides).
   */
  static readonly forRoot = oncePerIntake(({ broker }): DynamicModule => ({
    module: ProfileIntakeModule,
    imports: [
      AuthModule,
      RateLimitsModule,
      ProfileMetricsModule,
      GroupKeyRegistryModule,
      ...(broker ? [] : [ApplyProfileUpdatesModule]),
    ],
    providers: [
      ProfileIngestService,
      ProfileGeolocator,
      { provide: ProfileUpdateSink, useClass: broker ? KafkaProfileSink : InProcessProfileSink },
    ],
    exports: [ProfileIngestService],
  }));
}

/** The gateway's /engage and /groups: to Kafka, or without a broker applied in-process before answering. */
@Module({})
export class ProfilesIngestModule {
  static forRoot(intake: IntakeOptions): DynamicModule {
    return {
      module: ProfilesIngestModule,
      imports: [ProfileIntakeModule.forRoot(intake)],
      controllers: [ProfileUpdatesController],
    };
  }
}

/** The profiles writer: the consumer group on the profiles topic (with a broker only). */
@Module({ imports: [ApplyProfileUpdatesModule, ProfileMetricsModule], controllers: [ProfilesConsumer] })
export class ProfilesWriterModule {}

/** Management of the project's group keys, /api/app/projects/{projectId}/group-keys. */
@Module({ imports: [AuthModule, GroupKeyRegistryModule], controllers: [GroupKeysController] })
export class GroupKeysModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(jsonBody('app')).forRoutes(GroupKeysController);
  }
}
