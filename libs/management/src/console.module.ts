import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { ConsoleFilesMiddleware } from './console-files.middleware';

/**
 * The web console as static files at `/` (built by `npm run build` from web/console): mounted by
 * the management service, so the standalone serves it too. See docs/console.md.
 */
@Module({})
export class ConsoleModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(ConsoleFilesMiddleware).forRoutes({ path: '{/*splat}', method: RequestMethod.ALL });
  }
}
