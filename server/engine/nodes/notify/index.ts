/** The notification node types, in palette order. */
import type { NodeDefinition } from '../../contract/define-node';
import { notifyOwnerNode } from './owner.node.ts';

export const notifyNodes: NodeDefinition[] = [notifyOwnerNode];
