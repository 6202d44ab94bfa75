/**
 * The operator's OpenAPI description (docs/control-plane.openapi.json) says what the instance's wire schemas
 * (protocol.ts) accept and send: same routes, same fields, same bounds, same statuses.
 */
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { protocolPaths, putMessageBody, putThreadBody, wireLimits } from './protocol';
import { SUPPORT_CONVERSATION_STATUSES, SUPPORT_REQUEST_STATUSES } from './store';

type Schema = { required?: string[]; properties?: Record<string, Schema>; maxLength?: number; maxItems?: number; enum?: string[]; maximum?: number };
const document = JSON.parse(readFileSync(new URL('../../../../docs/control-plane.openapi.json', import.meta.url), 'utf8')) as {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, Schema> };
};
const schemas = document.components.schemas;

describe('the control plane OpenAPI description', () => {
  it('validates as OpenAPI 3.1', async () => {
    const result = await new Validator().validate(structuredClone(document) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('is OpenAPI 3.1 with exactly the protocol routes, versioned under /v1/', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).sort()).toEqual(
      [
        protocolPaths.thread('I', 'T'),
        protocolPaths.message('I', 'T', 'M'),
        protocolPaths.changes('I'),
        protocolPaths.branding('I'),
      ]
        .map((path) => path.replace('/instances/I', '/instances/{instanceId}').replace('/threads/T', '/threads/{threadId}').replace('/messages/M', '/messages/{messageId}'))
        .sort(),
    );
    expect(Object.keys(document.paths).every((path) => path.startsWith('/v1/'))).toBe(true);
  });

  it('describes the bodies the instance sends, field for field', () => {
    expect([...(schemas.PutThread.required ?? [])].sort()).toEqual(Object.keys(putThreadBody.shape).sort());
    expect([...(schemas.PutMessage.required ?? [])].sort()).toEqual(Object.keys(putMessageBody.shape).sort());
    expect(schemas.PutThread.properties!.subject.maxLength).toBe(wireLimits.subject);
    expect(schemas.PutMessage.properties!.body.maxLength).toBe(wireLimits.memberBody);
  });

  it('bounds the answers as the instance checks them', () => {
    expect(schemas.ChangesPage.properties!.changes.maxItems).toBe(wireLimits.changesPerPage);
    expect(schemas.ChangesPage.properties!.nextCursor.maxLength).toBe(wireLimits.cursor);
    expect(schemas.TeamMessageChange.properties!.body.maxLength).toBe(wireLimits.teamBody);
    expect(schemas.StatusChange.properties!.status.enum).toEqual([...SUPPORT_REQUEST_STATUSES, ...SUPPORT_CONVERSATION_STATUSES]);
  });
});
