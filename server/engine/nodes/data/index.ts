/** The data node types, in palette order. */
import type { NodeDefinition } from '../define-node';
import { setNode } from './set.node';
import { datetimeNode } from './datetime.node';

export const dataNodes: NodeDefinition[] = [setNode, datetimeNode];
