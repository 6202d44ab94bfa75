import { it } from 'vitest';
import { checkOutboundNode } from './outbound.cases';
import { draftNode } from './draft.node.ts';

it('mail.draft prepares a reviewed item under the step’s effect key', () => checkOutboundNode(draftNode, 'draft'));
