/** The logic node types, in palette order. */
import type { NodeDefinition } from '../define-node';
import { ifNode } from './if.node';
import { switchNode } from './switch.node';
import { filterNode } from './filter.node';
import { mergeNode } from './merge.node';

export const logicNodes: NodeDefinition[] = [ifNode, switchNode, filterNode, mergeNode];
