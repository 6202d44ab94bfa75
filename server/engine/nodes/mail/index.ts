/** The mail action node types, in palette order. */
import type { NodeDefinition } from '../../contract/define-node';
import { moveNode } from './move.node.ts';
import { flagNode } from './flag.node.ts';
import { markReadNode } from './mark-read.node.ts';
import { labelNode } from './label.node.ts';
import { draftNode } from './draft.node.ts';
import { sendNode } from './send.node.ts';
import { readThreadNode } from './read-thread.node.ts';

export const mailNodes: NodeDefinition[] = [moveNode, flagNode, markReadNode, labelNode, draftNode, sendNode, readThreadNode];
