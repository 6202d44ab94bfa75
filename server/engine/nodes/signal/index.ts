/** The signal node types, in palette order. */
import type { NodeDefinition } from '../define-node';
import { signalMarkNode } from './mark.node';

export const signalNodes: NodeDefinition[] = [signalMarkNode];
