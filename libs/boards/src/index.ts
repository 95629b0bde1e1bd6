export { BoardsModule, SharedBoardsModule } from './boards.module';
