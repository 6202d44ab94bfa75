import { describe, expect, it } from 'vitest';
import { validateGraph } from '../../../engine/graph/validate-graph';
import { triggerNodesOf } from '../../../engine/graph/trigger-facts';
import { storedGraphInput } from '../../workflows/schemas';
import { templateCategories } from '../schemas';
import { templateFactsOf } from '../derive';
import { starterTemplates } from './index';

describe('the starter catalogue', () => {
  it('has at least 8 templates with distinct slugs, known categories and plain names', () => {
    expect(starterTemplates.length).toBeGreaterThanOrEqual(8);
    expect(new Set(starterTemplates.map((template) => template.slug)).size).toBe(starterTemplates.length);
    for (const template of starterTemplates) {
      expect(template.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(templateCategories).toContain(template.category);
      expect(template.name.length).toBeGreaterThan(0);
      expect(template.name.length).toBeLessThanOrEqual(200);
      expect(template.description.length).toBeGreaterThan(40);
      expect(template.description.length).toBeLessThanOrEqual(2_000);
    }
  });

  for (const template of starterTemplates) {
    describe(template.slug, () => {
      it('passes the stored graph schema and the real graph validation, with exactly one trigger', () => {
        const parsed = storedGraphInput.safeParse(template.graph);
        expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
        expect(validateGraph(parsed.data!)).toEqual([]);
        expect(triggerNodesOf(parsed.data!.nodes)).toHaveLength(1);
      });

      it('reads left to right: every connection goes to a node further right; names are words, not ids', () => {
        const byId = new Map(template.graph.nodes!.map((node) => [node.id, node]));
        for (const connection of template.graph.connections ?? []) {
          expect(byId.get(connection.to)!.position!.x).toBeGreaterThan(byId.get(connection.from)!.position!.x);
        }
        for (const node of template.graph.nodes!) expect(node.name).toMatch(/^[A-Z][a-z]* /);
      });

      it('names in setUp only parameters of its own nodes', () => {
        const ids = new Set(template.graph.nodes!.map((node) => node.id));
        for (const item of template.setUp) expect(ids.has(item.nodeId)).toBe(true);
      });
    });
  }
});

/** Every text of a starter a member reads: its card (name, description, tables), its note, its steps' names, what its set-up asks. */
function textsOf(template: (typeof starterTemplates)[number]): string[] {
  return [
    template.name,
    template.description,
    ...(template.graph.notes ?? []).map((note) => note.text ?? ''),
    ...(template.graph.nodes ?? []).map((node) => node.name),
    ...template.setUp.map((item) => item.what),
    ...(template.tables ?? []).flatMap((table) => [table.name, table.description, ...table.columns.map((column) => column.label)]),
  ];
}

describe('starter texts speak to people (issue 19 §2)', () => {
  const jargon: [RegExp, string][] = [
    [/\b[a-z]+\.[a-z_]+(@\d+)?\b/, 'a node type id such as logic.if@1'],
    [/mailbox ?ids?\b/i, 'a “Mailbox ids” label'],
    [/\bslug\b/i, 'the word “slug”'],
    [/regular expression|\bregex/i, 'regular expressions'],
    [/\(\?:|\\d|\[\^|\$match/, 'a raw regular expression'],
  ];
  for (const template of starterTemplates) {
    it(`${template.slug}: no node type ids, no “Mailbox ids”, no slugs, no regular expressions in its card, note or fields`, () => {
      for (const text of textsOf(template)) {
        // Addresses and domains in examples (@bigclient.com) are words people write.
        const words = text.replace(/[\w.+-]*@[\w-]+(\.[\w-]+)+/g, '');
        for (const [pattern, what] of jargon) expect(pattern.test(words), `${what} in “${text}”`).toBe(false);
      }
    });

    it(`${template.slug}: what a member fills is not a regular expression nor a condition on one`, () => {
      const byId = new Map((template.graph.nodes ?? []).map((node) => [node.id, node]));
      for (const item of template.setUp) {
        const value = JSON.stringify((byId.get(item.nodeId)!.params as Record<string, unknown> | undefined)?.[item.param] ?? null);
        expect(value, `${item.nodeId}.${item.param}`).not.toMatch(/\(\?:|\\\\d|\[\^|\$match|matches_regex/);
      }
      for (const node of template.graph.nodes ?? []) expect(JSON.stringify(node.params ?? {}), node.id).not.toContain('matches_regex');
    });
  }
});

describe('templateFactsOf', () => {
  it('lists node types sorted and unique, and the providers the graph needs', () => {
    const facts = templateFactsOf({
      nodes: [
        { id: 'a', type: 'trigger.webhook', version: 1, name: 'A' },
        { id: 'b', type: 'http.request', version: 1, name: 'B' },
        { id: 'c', type: 'data.set', version: 1, name: 'C' },
        { id: 'd', type: 'data.set', version: 1, name: 'D' },
        { id: 'e', type: 'mail.draft', version: 1, name: 'E' },
      ],
    });
    expect(facts).toEqual({ nodeTypes: ['data.set@1', 'http.request@1', 'mail.draft@1', 'trigger.webhook@1'], requiresProviders: ['http', 'mail'] });
  });

  it('needs no provider for a graph without mail or HTTP nodes', () => {
    expect(templateFactsOf({ nodes: [{ id: 'a', type: 'trigger.schedule', version: 1, name: 'A' }, { id: 'b', type: 'notify.owner', version: 1, name: 'B' }] })).toEqual({
      nodeTypes: ['notify.owner@1', 'trigger.schedule@1'],
      requiresProviders: [],
    });
    expect(templateFactsOf({ nodes: [] })).toEqual({ nodeTypes: [], requiresProviders: [] });
  });

  it('a mail trigger alone needs mail', () => {
    expect(templateFactsOf({ nodes: [{ id: 'a', type: 'trigger.mail', version: 1, name: 'A' }] }).requiresProviders).toEqual(['mail']);
  });
});
