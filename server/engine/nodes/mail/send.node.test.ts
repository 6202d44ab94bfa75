import { it } from 'vitest';
import { checkOutboundNode } from './outbound.cases';
import { sendNode } from './send.node.ts';

it('mail.send makes a send item under the step’s effect key', () => checkOutboundNode(sendNode, 'send'));
