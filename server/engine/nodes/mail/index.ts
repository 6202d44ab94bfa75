/** The mail node types, in palette order. */
import type { NodeDefinition } from '../define-node';

export const mailNodes: NodeDefinition[] = [];
