/** The flow node types, in palette order. */
import type { NodeDefinition } from '../define-node';

export const flowNodes: NodeDefinition[] = [];
