/**
 * Workflow failure trigger: the start of an error workflow. Its trigger data is the failing run's
 * triggering email (when there was one) plus the report under `failure` (spec, Events 6).
 */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';

export const workflowFailureTriggerNode = defineNode({
  type: 'trigger.workflow_failure',
  version: 1,
  category: 'trigger',
  trigger: 'workflow_failure',
  label: { en: 'Workflow failure', fr: 'Échec d’un workflow' },
  description: {
    en: 'Starts the workflow when a workflow naming it as its error workflow fails. The data holds the failing run’s triggering email, if any, and the report under `failure`.',
    fr: 'Démarre le workflow quand un workflow qui le désigne comme workflow d’erreur échoue. Les données contiennent le courriel déclencheur de l’exécution en échec, s’il y en a un, et le rapport sous `failure`.',
  },
  params: z.strictObject({}),
  outputs: ['main'],
  effect: 'none',
  requires: [],
  scopes: ['executions:read', 'messages:read'], // the failed run's report and its triggering email
  async execute({ trigger }) {
    return { data: trigger ?? {} };
  },
});
