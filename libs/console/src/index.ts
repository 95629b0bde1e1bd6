export { ConsoleModule } from './console.module';
export { CONSOLE_PAGES, consoleDirectory, consoleRequest } from './console-files';
