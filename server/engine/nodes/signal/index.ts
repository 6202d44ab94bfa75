/** The signal node types, in palette order. */
import type { NodeDefinition } from '../../contract/define-node';
import { signalMarkNode } from './mark.node.ts';

export const signalNodes: NodeDefinition[] = [signalMarkNode];
