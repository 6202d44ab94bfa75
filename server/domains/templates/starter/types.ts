/**
 * The shape of a starter template: a workflow graph the instance ships (upserted by slug at runner
 * start, runner/templates/sync-starter.ts). `setUp` lists what a member sets after installing it
 * (also written in the graph's sticky note), so a test can fill the same parameters.
 */
import type { GraphInput } from '../../../engine/contract/graph';
import type { TemplateTable } from '../table-requirements';
import type { templateCategories } from '../schemas';

export type TemplateCategory = (typeof templateCategories)[number];

export interface StarterTemplate {
  /** Stable identity across releases (lower-case words and dashes). */
  slug: string;
  name: string;
  description: string;
  category: TemplateCategory;
  graph: GraphInput;
  /** Parameters the member sets after installing (node id and parameter name, and why). */
  setUp: { nodeId: string; param: string; what: string }[];
  /** The shared tables it reads or writes, shown on its card; installing creates or maps each one. */
  tables?: TemplateTable[];
}

/** Left-to-right layout: column `column`, lane `lane` (0 the main lane, ±1 the branches). */
export const at = (column: number, lane = 0) => ({ x: column * 280, y: lane * 160 });

/** The sticky note above the graph that says what to set after installing. */
export const setUpNote = (text: string) => ({ id: 'set-up', text, position: { x: 0, y: -220 }, size: { width: 520, height: 160 }, color: 'jaune' as const });
