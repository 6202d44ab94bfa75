/** The approval node types, in palette order. */
import type { NodeDefinition } from '../../contract/define-node';
import { approvalRequestNode } from './request.node.ts';

export const approvalNodes: NodeDefinition[] = [approvalRequestNode];
