/** The trigger node types, in palette order. */
import type { NodeDefinition } from '../../contract/define-node';
import { mailTriggerNode } from './mail-trigger.node.ts';
import { scheduleTriggerNode } from './schedule-trigger.node.ts';
import { webhookTriggerNode } from './webhook-trigger.node.ts';
import { workflowFailureTriggerNode } from './workflow-failure-trigger.node.ts';

export const triggersNodes: NodeDefinition[] = [mailTriggerNode, webhookTriggerNode, workflowFailureTriggerNode, scheduleTriggerNode];
