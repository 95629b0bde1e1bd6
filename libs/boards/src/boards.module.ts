import { AuthModule } from '@analytics/auth';
import { AppConfig } from '@analytics/config';
import { jsonBody } from '@analytics/http';
import { installationSecret } from '@analytics/object-store';
import { ProjectsModule } from '@analytics/projects';
import { QueryModule } from '@analytics/query';
import { RateLimitsModule } from '@analytics/rate-limits';
import { SavedReportsStoreModule } from '@analytics/reports';
import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { hkdfSync } from 'node:crypto';
import { BOARD_SHARE_KEY, BoardShareLinks } from './board-share-links';
import { BoardTileResults } from './board-tile-results';
import { BoardsController } from './boards.controller';
import { BoardsRepository } from './boards.repository';
import { BoardsService } from './boards.service';
import { SharedBoardsController } from './shared-boards.controller';
import { SharedBoardsService } from './shared-boards.service';

/** The share links' key: derived from the installation's secret for this one purpose. */
const shareKey = async (config: AppConfig) =>
  Buffer.from(
    hkdfSync('sha256', await installationSecret(config), Buffer.alloc(0), 'analytics:board-share', 32),
  ).toString('base64url');

/** Boards' storage, rules and share links, for both modules below. */
@Module({
  imports: [SavedReportsStoreModule],
  providers: [
    BoardsRepository,
    BoardsService,
    BoardShareLinks,
    { provide: BOARD_SHARE_KEY, useFactory: shareKey, inject: [AppConfig] },
  ],
  exports: [BoardsRepository, BoardsService, BoardShareLinks, SavedReportsStoreModule],
})
class BoardsStoreModule {}

/** The management endpoints: /api/app/projects/{projectId}/boards, and their share links. */
@Module({ imports: [AuthModule, BoardsStoreModule], controllers: [BoardsController] })
export class BoardsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(jsonBody('app')).forRoutes(BoardsController);
  }
}

/** The public view of a shared board, beside the query API whose services compute its tiles. */
@Module({
  imports: [BoardsStoreModule, ProjectsModule, RateLimitsModule, QueryModule],
  controllers: [SharedBoardsController],
  providers: [SharedBoardsService, BoardTileResults],
})
export class SharedBoardsModule {}
