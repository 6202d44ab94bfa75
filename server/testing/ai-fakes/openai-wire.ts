/**
 * OpenAI's chat completions wire format (also spoken by Mistral, Groq and every OpenAI-compatible
 * server): `POST {base}/chat/completions` answered as one `chat.completion` object or, with
 * `stream: true`, as SSE `chat.completion.chunk` events ending with a usage chunk
 * (`stream_options.include_usage`) and `data: [DONE]`; `GET {base}/models` as `{ object: 'list', data }`.
 * Errors: `{ error: { message, type, param, code } }`.
 */
import { deltasOf, sse, usageOf, type VendorWire } from './fake-vendor-server';

const created = 1_760_000_000;

function usageBody(usage: ReturnType<typeof usageOf>) {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoning, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

const errorTypes: Record<number, [type: string, code: string | null]> = {
  400: ['invalid_request_error', null],
  401: ['invalid_request_error', 'invalid_api_key'],
  403: ['invalid_request_error', 'unsupported_country_region_territory'],
  404: ['invalid_request_error', 'model_not_found'],
  429: ['requests', 'rate_limit_exceeded'],
  500: ['server_error', null],
  503: ['server_error', null],
};

export const openAiWire: VendorWire = {
  name: 'openai',
  route(method, path) {
    if (method === 'POST' && /\/chat\/completions$/.test(path)) return 'generate';
    if (method === 'GET' && /\/models$/.test(path)) return 'models';
    return null;
  },
  isStream: ({ body }) => body?.stream === true,
  keyOf: (headers) => headers.authorization?.replace(/^Bearer /, ''),
  models: (names) => ({ object: 'list', data: names.map((id) => ({ id, object: 'model', created, owned_by: 'fake' })) }),
  errorType: (status) => (errorTypes[status] ?? errorTypes[status >= 500 ? 500 : 400])[0],
  errorBody(status, message, type) {
    const code = (errorTypes[status] ?? [null, null])[1];
    return { error: { message, type: type ?? 'invalid_request_error', param: null, code } };
  },
  json(reply, request) {
    const usage = usageOf(reply);
    const model = reply.model ?? request.body?.model ?? 'fake-model';
    let message: Record<string, unknown>;
    let finish = 'stop';
    switch (reply.kind) {
      case 'text':
        message = { role: 'assistant', content: reply.text, refusal: null, annotations: [] };
        finish = reply.finish ?? 'stop';
        break;
      case 'json':
        message = { role: 'assistant', content: JSON.stringify(reply.value), refusal: null, annotations: [] };
        break;
      case 'tool':
        message = {
          role: 'assistant',
          content: null,
          refusal: null,
          annotations: [],
          tool_calls: [{ id: reply.id ?? 'call_fake_1', type: 'function', function: { name: reply.name, arguments: JSON.stringify(reply.input) } }],
        };
        finish = 'tool_calls';
        break;
      case 'refusal':
        message = { role: 'assistant', content: null, refusal: null, annotations: [] };
        finish = 'content_filter';
        break;
    }
    return {
      id: 'chatcmpl-fake1',
      object: 'chat.completion',
      created,
      model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
      usage: usageBody(usage),
      service_tier: 'default',
      system_fingerprint: 'fp_fake',
    };
  },
  stream(reply, request) {
    const usage = usageOf(reply);
    const model = reply.model ?? request.body?.model ?? 'fake-model';
    const chunk = (delta: Record<string, unknown>, finish: string | null) =>
      sse({ id: 'chatcmpl-fake1', object: 'chat.completion.chunk', created, model, system_fingerprint: 'fp_fake', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
    const events = [chunk({ role: 'assistant', content: '', refusal: null }, null)];
    let finish = 'stop';
    switch (reply.kind) {
      case 'text':
      case 'json':
        for (const part of deltasOf(reply.kind === 'text' ? reply.text : JSON.stringify(reply.value))) events.push(chunk({ content: part }, null));
        if (reply.kind === 'text' && reply.finish) finish = reply.finish;
        break;
      case 'tool': {
        const args = JSON.stringify(reply.input);
        events.push(chunk({ tool_calls: [{ index: 0, id: reply.id ?? 'call_fake_1', type: 'function', function: { name: reply.name, arguments: '' } }] }, null));
        for (const part of deltasOf(args, 6)) events.push(chunk({ tool_calls: [{ index: 0, function: { arguments: part } }] }, null));
        finish = 'tool_calls';
        break;
      }
      case 'refusal':
        finish = 'content_filter';
        break;
    }
    events.push(chunk({}, finish));
    if (request.body?.stream_options?.include_usage === true) {
      events.push(sse({ id: 'chatcmpl-fake1', object: 'chat.completion.chunk', created, model, system_fingerprint: 'fp_fake', choices: [], usage: usageBody(usage) }));
    }
    events.push(sse('[DONE]'));
    return events;
  },
  streamContentType: 'text/event-stream; charset=utf-8',
};
