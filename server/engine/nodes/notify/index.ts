/** The notification node types, in palette order. */
import type { NodeDefinition } from '../define-node';
import { notifyOwnerNode } from './owner.node';

export const notifyNodes: NodeDefinition[] = [notifyOwnerNode];
