/** The notify node types, in palette order. */
import type { NodeDefinition } from '../define-node';

export const notifyNodes: NodeDefinition[] = [];
