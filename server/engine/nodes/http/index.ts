/** The HTTP node types, in palette order. */
import type { NodeDefinition } from '../../contract/define-node';
import { httpRequestNode } from './request.node.ts';

export const httpNodes: NodeDefinition[] = [httpRequestNode];
