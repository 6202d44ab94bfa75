/**
 * The two outputs of "Wait for a reply" are handles of their own on the canvas, each with words a
 * member reads (issue 24 §1): `replied` and `timeout` as "replied" / "no reply", "réponse" / "sans réponse".
 */
import { describe, expect, it } from 'vitest';
import { listNodeTypes } from '@/server/domains/node-types/service';
import { en } from '@/app/i18n/en';
import { fr } from '@/app/i18n/fr';
import { outputLabelsOf, outputsOf } from './ports';

const waitForReply = listNodeTypes({ lang: 'en' }).nodeTypes.find((type) => type.type === 'flow.wait_for_reply')!;
const node = { params: { amount: 2, unit: 'days' } };

describe('the ports of Wait for a reply', () => {
  it('draws a handle per output, and the error output when asked', () => {
    expect(outputsOf(node, waitForReply)).toEqual(['replied', 'timeout']);
    expect(outputsOf({ ...node, onError: 'errorPort' }, waitForReply)).toEqual(['replied', 'timeout', 'error']);
  });

  it('labels them in the member’s language', () => {
    expect(outputLabelsOf(node, waitForReply, en.builder.ports)).toEqual(['replied', 'no reply']);
    expect(outputLabelsOf(node, waitForReply, fr.builder.ports)).toEqual(['réponse', 'sans réponse']);
  });
});
