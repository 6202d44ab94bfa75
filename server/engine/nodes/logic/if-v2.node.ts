/** If, version 2: text comparisons ignore case unless `caseSensitive` is on (the palette's version). */
import { defineIfNode } from './if.node.ts';

export const ifNodeV2 = defineIfNode(2);
