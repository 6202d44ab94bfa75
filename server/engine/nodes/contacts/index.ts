/** The address book node types, in palette order. */
import type { NodeDefinition } from '../../contract/define-node';
import { contactLookupNode } from './lookup.node.ts';

export const contactsNodes: NodeDefinition[] = [contactLookupNode];
