/** The logic node types, in palette order. */
import type { NodeDefinition } from '../define-node';
import { ifNode } from './if.node.ts';
import { switchNode } from './switch.node.ts';
import { filterNode } from './filter.node.ts';
import { mergeNode } from './merge.node.ts';

export const logicNodes: NodeDefinition[] = [ifNode, switchNode, filterNode, mergeNode];
