import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { localizeParamsSchema, paramHelpTexts } from './param-help';
import { paramHelpFr } from './param-help-fr';
import { nodeDefinitions } from './registry';

const schemaOf = (definition: (typeof nodeDefinitions)[number]) => z.toJSONSchema(definition.params, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;

describe('node parameter help', () => {
  it.each(nodeDefinitions.map((definition) => [`${definition.type}@${definition.version}`, definition] as const))(
    'Node parameter help is translated: every help text of %s has its French',
    (_key, definition) => {
      const texts = paramHelpTexts(schemaOf(definition));
      expect(texts.filter((text) => !paramHelpFr.has(text))).toEqual([]);
      const french = paramHelpTexts(localizeParamsSchema(schemaOf(definition), 'fr'));
      expect(french).toEqual(texts.map((text) => paramHelpFr.get(text)));
    },
  );

  it('keeps the backticked values (the connection picker reads the types it offers from them)', () => {
    for (const [english, french] of paramHelpFr) {
      const values = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
      expect(values(french), english).toEqual(values(english));
    }
  });

  it('translates help only, never a default or a constant', () => {
    const text = [...paramHelpFr.keys()][0];
    const schema = { type: 'object', description: text, properties: { a: { type: 'string', default: text, const: text, description: text } } };
    expect(localizeParamsSchema(schema, 'fr')).toEqual({
      type: 'object',
      description: paramHelpFr.get(text),
      properties: { a: { type: 'string', default: text, const: text, description: paramHelpFr.get(text) } },
    });
    expect(localizeParamsSchema(schema, 'en')).toBe(schema);
  });

  it('has no translation left over from help that no longer exists', () => {
    const used = new Set(nodeDefinitions.flatMap((definition) => paramHelpTexts(schemaOf(definition))));
    expect([...paramHelpFr.keys()].filter((text) => !used.has(text))).toEqual([]);
  });
});
