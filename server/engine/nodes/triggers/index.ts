/** The trigger node types, in palette order. */
import type { NodeDefinition } from '../define-node';
import { mailTriggerNode } from './mail-trigger.node';
import { scheduleTriggerNode } from './schedule-trigger.node';
import { webhookTriggerNode } from './webhook-trigger.node';
import { workflowFailureTriggerNode } from './workflow-failure-trigger.node';

export const triggersNodes: NodeDefinition[] = [mailTriggerNode, webhookTriggerNode, workflowFailureTriggerNode, scheduleTriggerNode];
