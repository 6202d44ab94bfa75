/** The triggers node types, in palette order. */
import type { NodeDefinition } from '../define-node';

export const triggersNodes: NodeDefinition[] = [];
