/** The mail action node types, in palette order. */
import type { NodeDefinition } from '../define-node';
import { moveNode } from './move.node';
import { flagNode } from './flag.node';
import { markReadNode } from './mark-read.node';
import { labelNode } from './label.node';

export const mailNodes: NodeDefinition[] = [moveNode, flagNode, markReadNode, labelNode];
