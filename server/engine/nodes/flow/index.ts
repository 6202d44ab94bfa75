/** The flow node types, in palette order. */
import type { NodeDefinition } from '../define-node';
import { waitNode } from './wait.node';
import { loopNode } from './loop.node';
import { subWorkflowNode } from './sub-workflow.node';

export const flowNodes: NodeDefinition[] = [waitNode, loopNode, subWorkflowNode];
