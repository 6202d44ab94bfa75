/** An error workflow: a failure notification with its summary, and the message involved labelled. */
import { at, setUpNote, type StarterTemplate } from './types';

export const alertOnWorkflowFailures: StarterTemplate = {
  slug: 'alert-on-workflow-failures',
  name: 'Alert me when a workflow fails',
  description:
    'An error workflow: choose it as the error workflow of your other workflows. When one of them fails, you get a notification saying which workflow and step failed and why, and the message that started the failed run (if any) is labelled “Needs attention” so you can find it in the inbox.',
  category: 'notifications',
  graph: {
    nodes: [
      { id: 'failure', type: 'trigger.workflow_failure', version: 1, name: 'A workflow fails', params: {}, position: at(0) },
      {
        id: 'notify',
        type: 'notify.owner',
        version: 1,
        name: 'Notify me with the failure',
        params: {
          title: '{{ $substring("Failed: " & trigger.failure.workflowName, 0, 120) }}',
          body: '{{ $substring("Step “" & (trigger.failure.nodeName ? trigger.failure.nodeName : trigger.failure.nodeId) & "” (" & trigger.failure.nodeType & ") failed with " & trigger.failure.error.code & ": " & trigger.failure.error.message, 0, 1000) }}',
          severity: 'error',
        },
        position: at(1, -1),
      },
      {
        id: 'has-message',
        type: 'logic.if',
        version: 2,
        name: 'Did a message start it?',
        params: { conditions: [{ left: '{{ trigger.failure.messageId }}', operator: 'is_not_empty' }], combine: 'all' },
        position: at(1, 1),
      },
      { id: 'label', type: 'mail.label', version: 1, name: 'Label it Needs attention', params: { add: ['Needs attention'] }, position: at(2, 1) },
    ],
    connections: [
      { from: 'failure', output: 'main', to: 'notify' },
      { from: 'failure', output: 'main', to: 'has-message' },
      { from: 'has-message', output: 'true', to: 'label' },
    ],
    notes: [setUpNote('Publish this workflow, then choose it as the error workflow in the settings of each workflow to watch.')],
  },
  setUp: [],
};
