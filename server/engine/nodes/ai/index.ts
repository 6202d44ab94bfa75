/** The AI node types, in palette order. */
import type { NodeDefinition } from '../define-node';
import { aiClassifyNode } from './classify.node';
import { aiComposeNode } from './compose.node';
import { aiExtractNode } from './extract.node';
import { aiGeneralNode } from './general.node';

export const aiNodes: NodeDefinition[] = [aiClassifyNode, aiExtractNode, aiComposeNode, aiGeneralNode];
