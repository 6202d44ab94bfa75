/** The table node types, in palette order. */
import type { NodeDefinition } from '../../contract/define-node';
import { lookupNode } from './lookup.node.ts';
import { insertNode } from './insert.node.ts';
import { updateNode } from './update.node.ts';
import { upsertNode } from './upsert.node.ts';

export const tablesNodes: NodeDefinition[] = [lookupNode, insertNode, updateNode, upsertNode];
