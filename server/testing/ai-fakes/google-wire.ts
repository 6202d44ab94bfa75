/**
 * Google's Generative Language API (Gemini) wire format: `POST /v1beta/models/{model}:generateContent`
 * (key in `x-goog-api-key`) answered as `{ candidates: [{ content: { parts, role: 'model' },
 * finishReason, index }], usageMetadata, modelVersion, responseId }`; `…:streamGenerateContent?alt=sse`
 * as SSE `data:` events of the same shape, `\r\n`-separated as Google sends them; a function call is a
 * `functionCall` part with `finishReason: 'STOP'`; a safety stop is `finishReason: 'SAFETY'`;
 * `GET /v1beta/models` as `{ models: [{ name: 'models/…', supportedGenerationMethods }] }`. Errors:
 * `{ error: { code, message, status } }`. Usage counts thoughts apart (`thoughtsTokenCount`), outside
 * `candidatesTokenCount`.
 */
import { deltasOf, sse, usageOf, type FakeAnswer as Answer, type VendorWire, type WireRequest } from './fake-vendor-server';

const statuses: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

function modelOf(reply: Answer, request: WireRequest): string {
  return reply.model ?? /\/models\/([^/:]+):/.exec(request.path)?.[1] ?? 'fake-model';
}

function usageMetadata(reply: Answer) {
  const usage = usageOf(reply);
  return {
    promptTokenCount: usage.input,
    candidatesTokenCount: usage.output - usage.reasoning,
    totalTokenCount: usage.input + usage.output,
    ...(usage.reasoning > 0 ? { thoughtsTokenCount: usage.reasoning } : {}),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: usage.input }],
  };
}

const safetyRatings = [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }];

export const googleWire: VendorWire = {
  name: 'google',
  route(method, path) {
    if (method === 'POST' && /\/models\/[^/]+:(generateContent|streamGenerateContent)$/.test(path)) return 'generate';
    if (method === 'GET' && /\/models$/.test(path)) return 'models';
    return null;
  },
  isStream: ({ path }) => path.endsWith(':streamGenerateContent'),
  keyOf: (headers, query) => (headers['x-goog-api-key'] as string | undefined) ?? query.get('key') ?? undefined,
  models: (names) => ({
    models: names.map((name) => ({
      name: `models/${name}`,
      version: '001',
      displayName: name,
      inputTokenLimit: 1_048_576,
      outputTokenLimit: 65_536,
      supportedGenerationMethods: name.startsWith('text-embedding') ? ['embedContent'] : ['generateContent', 'countTokens'],
    })),
  }),
  errorType: (status) => statuses[status] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT'),
  errorBody: (status, message, type) => ({ error: { code: status, message, status: type } }),
  json(reply, request) {
    const model = modelOf(reply, request);
    let candidate: Record<string, unknown>;
    switch (reply.kind) {
      case 'text':
        candidate = { content: { parts: [{ text: reply.text }], role: 'model' }, finishReason: reply.finish === 'length' ? 'MAX_TOKENS' : 'STOP', index: 0 };
        break;
      case 'json':
        candidate = { content: { parts: [{ text: JSON.stringify(reply.value) }], role: 'model' }, finishReason: 'STOP', index: 0 };
        break;
      case 'tool':
        candidate = { content: { parts: [{ functionCall: { name: reply.name, args: reply.input } }], role: 'model' }, finishReason: 'STOP', index: 0 };
        break;
      case 'refusal':
        candidate = { finishReason: 'SAFETY', index: 0, safetyRatings };
        break;
    }
    return { candidates: [candidate], usageMetadata: usageMetadata(reply), modelVersion: model, responseId: 'fake-response-1' };
  },
  stream(reply, request) {
    const model = modelOf(reply, request);
    const event = (candidate: Record<string, unknown>, last: boolean) =>
      sse(
        {
          candidates: [candidate],
          ...(last ? { usageMetadata: usageMetadata(reply) } : { usageMetadata: { promptTokenCount: usageOf(reply).input, totalTokenCount: usageOf(reply).input } }),
          modelVersion: model,
          responseId: 'fake-response-1',
        },
        undefined,
        '\r\n',
      );
    switch (reply.kind) {
      case 'text':
      case 'json': {
        const parts = deltasOf(reply.kind === 'text' ? reply.text : JSON.stringify(reply.value));
        const finish = reply.kind === 'text' && reply.finish === 'length' ? 'MAX_TOKENS' : 'STOP';
        return parts.map((text, index) => {
          const last = index === parts.length - 1;
          return event({ content: { parts: [{ text }], role: 'model' }, ...(last ? { finishReason: finish } : {}), index: 0 }, last);
        });
      }
      case 'tool':
        // Gemini streams a function call whole, in one chunk.
        return [event({ content: { parts: [{ functionCall: { name: reply.name, args: reply.input } }], role: 'model' }, finishReason: 'STOP', index: 0 }, true)];
      case 'refusal':
        return [event({ finishReason: 'SAFETY', index: 0, safetyRatings }, true)];
    }
  },
  streamContentType: 'text/event-stream',
};
