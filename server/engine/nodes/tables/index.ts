/** The table node types, in palette order. */
import type { NodeDefinition } from '../define-node';
import { lookupNode } from './lookup.node';
import { insertNode } from './insert.node';
import { updateNode } from './update.node';
import { upsertNode } from './upsert.node';

export const tablesNodes: NodeDefinition[] = [lookupNode, insertNode, updateNode, upsertNode];
