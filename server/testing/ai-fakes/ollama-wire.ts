/**
 * Ollama's native API wire format: `POST /api/chat` streams by default (`stream` absent or true) as
 * NDJSON lines `{ model, created_at, message: { role, content }, done: false }` closed by a `done: true`
 * line with `done_reason` and the counters (`prompt_eval_count`, `eval_count`, durations in ns);
 * `stream: false` answers that last shape whole. Tool calls are `message.tool_calls: [{ function:
 * { name, arguments } }]` with arguments as an object; structured output is asked with `format`
 * (a JSON schema) and answered as JSON text. `GET /api/tags` lists `{ models: [{ name, model, … }] }`.
 * Errors: `{ error: "text" }`. No content filter and no reasoning token count.
 */
import { deltasOf, usageOf, type FakeAnswer as Answer, type VendorWire, type WireRequest } from './fake-vendor-server';

const createdAt = '2025-10-01T12:00:00.000000Z';

function head(reply: Answer, request: WireRequest) {
  return { model: reply.model ?? request.body?.model ?? 'fake-model', created_at: createdAt };
}

function finalLine(reply: Answer, request: WireRequest, message: Record<string, unknown>) {
  const usage = usageOf(reply);
  return {
    ...head(reply, request),
    message,
    done: true,
    done_reason: reply.kind === 'text' && reply.finish === 'length' ? 'length' : 'stop',
    total_duration: 5_191_566_416,
    load_duration: 2_154_458,
    prompt_eval_count: usage.input,
    prompt_eval_duration: 383_809_000,
    eval_count: usage.output,
    eval_duration: 4_799_921_000,
  };
}

function contentOf(reply: Answer): string {
  switch (reply.kind) {
    case 'text':
      return reply.text;
    case 'json':
      return JSON.stringify(reply.value);
    case 'tool':
    case 'refusal':
      return '';
  }
}

function toolCalls(reply: Answer) {
  return reply.kind === 'tool' ? [{ function: { name: reply.name, arguments: reply.input } }] : undefined;
}

export const ollamaWire: VendorWire = {
  name: 'ollama',
  route(method, path) {
    if (method === 'POST' && path === '/api/chat') return 'generate';
    if (method === 'GET' && path === '/api/tags') return 'models';
    return null;
  },
  isStream: ({ body }) => body?.stream !== false,
  keyOf: (headers) => headers.authorization?.replace(/^Bearer /, ''),
  models: (names) => ({
    models: names.map((name) => ({
      name,
      model: name,
      modified_at: createdAt,
      size: 2_019_393_189,
      digest: 'a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72',
      details: { parent_model: '', format: 'gguf', family: 'llama', families: ['llama'], parameter_size: '3.2B', quantization_level: 'Q4_K_M' },
    })),
  }),
  errorType: (status) => String(status),
  errorBody: (_status, message) => ({ error: message }),
  json(reply, request) {
    const calls = toolCalls(reply);
    return finalLine(reply, request, { role: 'assistant', content: contentOf(reply), ...(calls ? { tool_calls: calls } : {}) });
  },
  stream(reply, request) {
    const lines: string[] = [];
    const calls = toolCalls(reply);
    if (calls) {
      lines.push(JSON.stringify({ ...head(reply, request), message: { role: 'assistant', content: '', tool_calls: calls }, done: false }));
    } else {
      for (const part of deltasOf(contentOf(reply))) lines.push(JSON.stringify({ ...head(reply, request), message: { role: 'assistant', content: part }, done: false }));
    }
    lines.push(JSON.stringify(finalLine(reply, request, { role: 'assistant', content: '' })));
    return lines.map((line) => `${line}\n`);
  },
  streamContentType: 'application/x-ndjson',
};
