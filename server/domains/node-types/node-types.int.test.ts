import { beforeAll, describe, expect, it } from 'vitest';
import { nodeDefinitions } from '../../engine/nodes/registry';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

let member: TestMember;
beforeAll(async () => {
  member = await createMember({ name: 'Designer' });
});

describe('GET /api/v1/node-types', () => {
  it('lists every node type with its ports, effect, retry defaults and parameter JSON Schema', async () => {
    const response = await call('GET', '/api/v1/node-types', { cookie: member.cookie });
    expect(response.status).toBe(200);
    const types = response.body.nodeTypes as { type: string }[];
    expect(types.map((entry) => entry.type).sort()).toEqual([...new Set(nodeDefinitions.map((definition) => definition.type))].sort());
    const byType = new Map(types.map((entry) => [entry.type, entry]));
    expect(byType.get('logic.if')).toEqual({
      type: 'logic.if',
      // The palette offers the newest version: conditions that ignore case unless told otherwise (issue 19 §6).
      version: 2,
      category: 'logic',
      label: 'If',
      description: expect.any(String),
      inputs: ['main'],
      outputs: ['true', 'false'],
      effect: 'none',
      retry: { maxAttempts: 3, delayMs: 5_000, timeoutMs: 120_000 },
      trigger: null,
      mailboxParams: [],
      scopes: [],
      parameterScopes: [],
      workflowParams: [],
      paramsSchema: expect.objectContaining({
        type: 'object',
        properties: expect.objectContaining({ conditions: expect.any(Object), caseSensitive: expect.objectContaining({ type: 'boolean', default: false }) }),
      }),
      outputSchema: null,
      forbidden: false,
    });
    expect(byType.get('logic.switch')).toMatchObject({ outputs: null });
    expect(byType.get('logic.merge')).toMatchObject({ inputs: ['a', 'b'] });
    expect(byType.get('http.request')).toMatchObject({ effect: 'external' });
    expect(byType.get('trigger.webhook')).toMatchObject({ trigger: 'webhook', inputs: [] });
  });

  it('a mail trigger’s fields are known without a test run: its outputSchema names the message summary’s fields (issue 19 §6)', async () => {
    const response = await call('GET', '/api/v1/node-types', { cookie: member.cookie });
    const mail = (response.body.nodeTypes as { type: string; outputSchema: { properties: Record<string, { properties?: Record<string, unknown> }> } | null }[]).find(
      (entry) => entry.type === 'trigger.mail',
    );
    expect(Object.keys(mail?.outputSchema?.properties ?? {})).toEqual(expect.arrayContaining(['id', 'subject', 'from', 'to', 'receivedAt', 'snippet', 'hasAttachments', 'isMailingList', 'signals']));
    expect(Object.keys(mail?.outputSchema?.properties.from.properties ?? {})).toEqual(['name', 'email']);
  });

  it('http.request attempt timeout is the built-in one (3 attempts, 5 s, 2 min per attempt), as the spec’s table says of node types other than AI nodes', async () => {
    const response = await call('GET', '/api/v1/node-types', { cookie: member.cookie });
    const http = (response.body.nodeTypes as { type: string; retry: unknown }[]).find((entry) => entry.type === 'http.request');
    expect(http?.retry).toEqual({ maxAttempts: 3, delayMs: 5_000, timeoutMs: 120_000 });
  });

  it('speaks French with lang=fr', async () => {
    const response = await call('GET', '/api/v1/node-types?lang=fr', { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect((response.body.nodeTypes as { type: string; label: string }[]).find((entry) => entry.type === 'logic.if')?.label).toBe('Si');
  });

  it('Node parameter help is translated: lang=fr gives the parameters’ help in French', async () => {
    const response = await call('GET', '/api/v1/node-types?lang=fr', { cookie: member.cookie });
    const types = response.body.nodeTypes as { type: string; paramsSchema: { properties: Record<string, { description?: string }> } }[];
    expect(types.find((entry) => entry.type === 'logic.if')?.paramsSchema.properties.conditions.description).toBe('Les conditions (1 à 50).');
    expect(types.find((entry) => entry.type === 'mail.move')?.paramsSchema.properties.folder.description).toBe(
      'Le dossier cible : sa clé, ou un nom de rôle (inbox, archive, trash, spam, …).',
    );
  });

  it('refuses an unknown language with 400 request.bad_request', async () => {
    const response = await call('GET', '/api/v1/node-types?lang=de', { cookie: member.cookie });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });

  it('needs workflows:read for an API key', async () => {
    const without = await createApiKeyFor(member, ['tables:read']);
    expect((await call('GET', '/api/v1/node-types', { key: without.secret })).status).toBe(403);
    const withScope = await createApiKeyFor(member, ['workflows:read']);
    expect((await call('GET', '/api/v1/node-types', { key: withScope.secret })).status).toBe(200);
  });

  it('needs a caller', async () => {
    expect((await call('GET', '/api/v1/node-types')).status).toBe(401);
  });
});
