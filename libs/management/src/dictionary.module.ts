import { AuthModule } from '@analytics/auth';
import { SchemasStoreModule } from '@analytics/dictionary';
import { jsonBody } from '@analytics/http';
import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { SchemasController } from './schemas.controller';

/**
 * The data-dictionary API, /api/app/projects/{projectId}/schemas (a management service part). Its
 * rules and stores are the dictionary lib's, which the gateway reads without this API's auth.
 */
@Module({ imports: [AuthModule, SchemasStoreModule], controllers: [SchemasController] })
export class DictionaryModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(jsonBody('app')).forRoutes(SchemasController);
  }
}
