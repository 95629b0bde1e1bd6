import { AuthModule } from '@analytics/auth';
import { jsonBody } from '@analytics/http';
import { RateLimitsModule } from '@analytics/rate-limits';
import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { AnnotationsController, AnnotationTagsController } from './annotations.controller';
import { AnnotationsRepository } from './annotations.repository';
import { AnnotationsService } from './annotations.service';
import { LegacyAnnotationsController } from './legacy-annotations.controller';

/**
 * Annotations and their tags, /api/app/projects/{projectId}/annotations (a management service part).
 * The tags controller comes first: its literal path must win over `:annotationId`.
 */
@Module({
  imports: [AuthModule],
  controllers: [AnnotationTagsController, AnnotationsController],
  providers: [AnnotationsRepository, AnnotationsService],
  exports: [AnnotationsService],
})
export class AnnotationsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(jsonBody('app')).forRoutes(AnnotationTagsController, AnnotationsController);
  }
}

/**
 * The older read path, /api/2.0/annotations: the query host's (the ingress sends /api/2.0 there),
 * so the query service mounts it, reading the same table through the same service.
 */
@Module({
  imports: [AuthModule, RateLimitsModule],
  controllers: [LegacyAnnotationsController],
  providers: [AnnotationsRepository, AnnotationsService],
})
export class LegacyAnnotationsModule {}
