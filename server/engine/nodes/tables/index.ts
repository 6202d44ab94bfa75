/** The tables node types, in palette order. */
import type { NodeDefinition } from '../define-node';

export const tablesNodes: NodeDefinition[] = [];
