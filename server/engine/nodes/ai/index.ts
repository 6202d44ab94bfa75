/** The AI node types, in palette order. */
import type { NodeDefinition } from '../../contract/define-node';
import { aiClassifyNode } from './classify.node.ts';
import { aiComposeNode } from './compose.node.ts';
import { aiExtractNode } from './extract.node.ts';
import { aiGeneralNode } from './general.node.ts';

export const aiNodes: NodeDefinition[] = [aiClassifyNode, aiExtractNode, aiComposeNode, aiGeneralNode];
