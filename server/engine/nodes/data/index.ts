/** The data node types, in palette order. */
import type { NodeDefinition } from '../define-node';

export const dataNodes: NodeDefinition[] = [];
