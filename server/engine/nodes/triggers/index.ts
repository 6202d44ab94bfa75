/** The trigger node types, in palette order. */
import type { NodeDefinition } from '../define-node';
import { webhookTriggerNode } from './webhook-trigger.node';

export const triggersNodes: NodeDefinition[] = [webhookTriggerNode];
