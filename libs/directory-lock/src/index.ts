export { DirectoryInUseError, lockDirectory } from './directory-lock';
