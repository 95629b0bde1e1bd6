export { ConsoleModule } from './console.module';
