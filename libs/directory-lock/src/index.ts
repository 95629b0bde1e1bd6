export { lockDirectory } from './directory-lock';
