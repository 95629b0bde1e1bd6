import { exitUnlessSupportedNode } from './supported-node';

/**
 * Imported first by every app's main, for this: the check runs before the rest of the app loads, so
 * an unsupported Node is refused with one line even where loading the app would already fail.
 */
exitUnlessSupportedNode();
