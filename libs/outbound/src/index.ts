export { NON_PUBLIC_NETWORKS } from './non-public-networks';
export { OutboundPolicy, OutboundRefused } from './outbound-policy';
export { OutboundModule } from './outbound.module';
