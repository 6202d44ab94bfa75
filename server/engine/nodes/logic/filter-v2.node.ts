/** Filter, version 2: text comparisons ignore case unless `caseSensitive` is on (the palette's version). */
import { defineFilterNode } from './filter.node.ts';

export const filterNodeV2 = defineFilterNode(2);
