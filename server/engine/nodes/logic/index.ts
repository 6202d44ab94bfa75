/** The logic node types, in palette order; each type's older versions stay for the graphs that name them. */
import type { NodeDefinition } from '../../contract/define-node';
import { ifNode } from './if.node.ts';
import { ifNodeV2 } from './if-v2.node.ts';
import { switchNode } from './switch.node.ts';
import { switchNodeV2 } from './switch-v2.node.ts';
import { filterNode } from './filter.node.ts';
import { filterNodeV2 } from './filter-v2.node.ts';
import { mergeNode } from './merge.node.ts';

export const logicNodes: NodeDefinition[] = [ifNode, ifNodeV2, switchNode, switchNodeV2, filterNode, filterNodeV2, mergeNode];
