import { describe, expect, it } from 'vitest';
import { templateFactsOf } from './derive';

const node = (type: string, version = 1) => ({ type, version });

describe('templateFactsOf', () => {
  it.each([
    { nodes: [], nodeTypes: [], providers: [] },
    { nodes: [node('trigger.webhook')], nodeTypes: ['trigger.webhook@1'], providers: [] },
    { nodes: [node('trigger.mail'), node('logic.if')], nodeTypes: ['logic.if@1', 'trigger.mail@1'], providers: ['mail'] },
    { nodes: [node('trigger.webhook'), node('mail.send')], nodeTypes: ['mail.send@1', 'trigger.webhook@1'], providers: ['mail'] },
    { nodes: [node('trigger.schedule'), node('http.request')], nodeTypes: ['http.request@1', 'trigger.schedule@1'], providers: ['http'] },
    {
      nodes: [node('trigger.mail'), node('http.request'), node('mail.label'), node('http.request'), node('logic.if', 2), node('logic.if')],
      nodeTypes: ['http.request@1', 'logic.if@1', 'logic.if@2', 'mail.label@1', 'trigger.mail@1'],
      providers: ['http', 'mail'],
    },
    // A type that merely contains "mail" is not a mail node.
    { nodes: [node('notify.owner_mail')], nodeTypes: ['notify.owner_mail@1'], providers: [] },
  ])('$nodeTypes → $providers', ({ nodes, nodeTypes, providers }) => {
    expect(templateFactsOf({ nodes })).toEqual({ nodeTypes, requiresProviders: providers });
  });
});
