/** The flow node types, in palette order. */
import type { NodeDefinition } from '../../contract/define-node';
import { waitNode } from './wait.node.ts';
import { waitForReplyNode } from './wait-for-reply.node.ts';
import { loopNode } from './loop.node.ts';
import { subWorkflowNode } from './sub-workflow.node.ts';

export const flowNodes: NodeDefinition[] = [waitNode, waitForReplyNode, loopNode, subWorkflowNode];
