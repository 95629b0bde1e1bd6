import { AuthModule } from '@analytics/auth';
import { jsonBody } from '@analytics/http';
import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { AnnotationsController, AnnotationTagsController } from './annotations.controller';
import { AnnotationsRepository } from './annotations.repository';
import { AnnotationsService } from './annotations.service';

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
