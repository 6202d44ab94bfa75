/** Switch, version 2: text comparisons ignore case unless `caseSensitive` is on (the palette's version). */
import { defineSwitchNode } from './switch.node.ts';

export const switchNodeV2 = defineSwitchNode(2);
