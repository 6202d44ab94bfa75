/**
 * Signal: marks the triggering (or a chosen) message with a named signal that other workflows'
 * triggers and filters read; at most once per message and name (a repeat answers `created: false`).
 */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';
import { messageIdParam, targetMessage } from '../mail/act-on-message';

export const signalName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9._-]+$/, 'Lower-case letters, digits, `.`, `_` and `-`.')
  .describe('The signal’s name (1-64 characters: a-z, 0-9, `.`, `_`, `-`).');

export const signalMarkNode = defineNode({
  type: 'signal.mark',
  version: 1,
  category: 'signal',
  label: { en: 'Mark with a signal', fr: 'Marquer d’un signal' },
  description: {
    en: 'Marks the message (or its thread) with a named signal that other workflows can react to.',
    fr: 'Marque le message (ou sa conversation) d’un signal nommé auquel d’autres workflows peuvent réagir.',
  },
  params: z.strictObject({
    name: signalName,
    target: z.enum(['message', 'thread']).default('message').describe('Mark the message, or its whole thread (read by thread-level filters).'),
    messageId: messageIdParam,
  }),
  outputs: ['main'],
  effect: 'keyed',
  requires: ['mail'],
  scopes: ['messages:write'],
  async execute(context) {
    const { params, capabilities, effect } = context;
    const messageId = targetMessage(context, params.messageId);
    const description = `Signal ${params.name} on the ${params.target}`;
    const outcome = await effect(
      { key: 'signal', kind: 'signal.mark', description },
      () => capabilities.signal.mark({ effectKey: 'signal', messageId, name: params.name }),
      () => ({ created: true }),
    );
    return {
      data: { messageId, name: params.name, target: params.target, created: outcome.created },
    };
  },
});
