export { encodeLink, linkPartition } from './identity-link-message';
export { IdentityMergeHook, MergedId } from './identity-merge-hook';
export { IdentityMetrics } from './identity-metrics';
export { IdentitiesConsumerModule, IdentityModule } from './identity.module';
export { IdentityRepository } from './identity.repository';
export { IdentityWriter } from './identity-writer.service';
