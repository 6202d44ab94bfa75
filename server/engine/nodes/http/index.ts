/** The HTTP node types, in palette order. */
import type { NodeDefinition } from '../define-node';
import { httpRequestNode } from './request.node';

export const httpNodes: NodeDefinition[] = [httpRequestNode];
