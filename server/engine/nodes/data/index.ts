/** The data node types, in palette order. */
import type { NodeDefinition } from '../../contract/define-node';
import { setNode } from './set.node.ts';
import { datetimeNode } from './datetime.node.ts';

export const dataNodes: NodeDefinition[] = [setNode, datetimeNode];
