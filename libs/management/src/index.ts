export { ConsoleModule } from './console.module';
export { DictionaryModule } from './dictionary.module';
export { ManagementModule } from './management.module';
