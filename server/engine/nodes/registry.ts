/**
 * Every node type the instance knows, by `type` and `version`: an explicit list (each family's
 * index), so a node file that is not listed is caught by registry.test.ts, never silently missing.
 */
import type { NodeDefinition, Requirement } from '../contract/define-node';
import { triggersNodes } from './triggers';
import { logicNodes } from './logic';
import { dataNodes } from './data';
import { flowNodes } from './flow';
import { httpNodes } from './http';
import { mailNodes } from './mail';
import { tablesNodes } from './tables';
import { contactsNodes } from './contacts';
import { notifyNodes } from './notify';
import { signalNodes } from './signal';
import { approvalNodes } from './approval';
import { aiNodes } from './ai';

export const nodeDefinitions: readonly NodeDefinition[] = [
  ...triggersNodes,
  ...logicNodes,
  ...dataNodes,
  ...flowNodes,
  ...httpNodes,
  ...mailNodes,
  ...tablesNodes,
  ...contactsNodes,
  ...notifyNodes,
  ...signalNodes,
  ...approvalNodes,
  ...aiNodes,
];

const byKey = new Map(nodeDefinitions.map((definition) => [`${definition.type}@${definition.version}`, definition]));
/** Node types only engine tests register (`test.*` fixtures); always empty in the service. */
const fixtures = new Map<string, NodeDefinition>();

export function findNodeType(type: string, version: number): NodeDefinition | undefined {
  return byKey.get(`${type}@${version}`) ?? fixtures.get(`${type}@${version}`);
}

/** Engine tests' fixture node types (type names start with `test.`); refused outside tests. */
export function registerFixtureNodeTypes(definitions: NodeDefinition[]): void {
  if (!process.env.VITEST) throw new Error('Fixture node types exist only in tests.');
  for (const definition of definitions) {
    if (!definition.type.startsWith('test.')) throw new Error(`Fixture node types are named test.*: ${definition.type}`);
    fixtures.set(`${definition.type}@${definition.version}`, definition);
  }
}

/** The newest version of each type, for the palette. */
export function latestNodeTypes(): NodeDefinition[] {
  const latest = new Map<string, NodeDefinition>();
  for (const definition of nodeDefinitions) {
    const seen = latest.get(definition.type);
    if (!seen || seen.version < definition.version) latest.set(definition.type, definition);
  }
  return [...latest.values()];
}

/** What a node of this type and version needs of the instance to run (NodeDefinition.requires); none for an unknown type. */
export function nodeRequirementsOf(type: string, version: number): readonly Requirement[] {
  return findNodeType(type, version)?.requires ?? [];
}
