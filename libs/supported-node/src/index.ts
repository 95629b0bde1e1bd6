export { exitUnlessSupportedNode, NodeRuntime, REQUIRED_NODE_MAJOR, unsupportedNodeReason } from './supported-node';
