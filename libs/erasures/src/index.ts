/**
 * What GDPR/CCPA deletions erased, kept where a deletion cannot reach: the ids each started
 * deletion covered (`erased_ids`), and the screen dlq:replay applies to dead letters with them.
 * Its own lib so the replay tool loads it without the compliance service.
 */
export { DeletionScreen } from './deletion-screen';
export { ErasedIdsRepository } from './erased-ids.repository';
