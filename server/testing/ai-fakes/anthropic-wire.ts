/**
 * Anthropic's Messages API wire format: `POST /v1/messages` (key in `x-api-key`, `anthropic-version`
 * header) answered as one `message` object, or with `stream: true` as named SSE events
 * (`message_start`, `content_block_start`, `ping`, `content_block_delta` with `text_delta` /
 * `input_json_delta`, `content_block_stop`, `message_delta` with the stop reason and output usage,
 * `message_stop`); `GET /v1/models` paged `{ data, has_more, first_id, last_id }`. Errors:
 * `{ type: 'error', error: { type, message }, request_id }`. A structured answer is text under
 * `output_config.format` (native structured outputs) or the input of the `json` tool when the client
 * asked through that tool.
 */
import { deltasOf, sse, usageOf, type FakeAnswer as Answer, type VendorWire, type WireRequest } from './fake-vendor-server';

const errorTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

function asksJsonTool(request: WireRequest): boolean {
  return !request.body?.output_config?.format && Array.isArray(request.body?.tools) && request.body.tools.some((tool: { name?: string }) => tool.name === 'json');
}

/** The content blocks and stop reason of an answer. */
function blocksOf(reply: Answer, request: WireRequest): { blocks: Record<string, unknown>[]; stop: string } {
  switch (reply.kind) {
    case 'text':
      return { blocks: [{ type: 'text', text: reply.text }], stop: reply.finish === 'length' ? 'max_tokens' : 'end_turn' };
    case 'json':
      if (asksJsonTool(request)) return { blocks: [{ type: 'tool_use', id: 'toolu_fake_json', name: 'json', input: reply.value }], stop: 'tool_use' };
      return { blocks: [{ type: 'text', text: JSON.stringify(reply.value) }], stop: 'end_turn' };
    case 'tool':
      return { blocks: [{ type: 'tool_use', id: reply.id ?? 'toolu_fake_1', name: reply.name, input: reply.input }], stop: 'tool_use' };
    case 'refusal':
      return { blocks: [], stop: 'refusal' };
  }
}

export const anthropicWire: VendorWire = {
  name: 'anthropic',
  route(method, path) {
    if (method === 'POST' && /\/v1\/messages$/.test(path)) return 'generate';
    if (method === 'GET' && /\/v1\/models$/.test(path)) return 'models';
    return null;
  },
  isStream: ({ body }) => body?.stream === true,
  keyOf: (headers) => headers['x-api-key'] as string | undefined,
  models: (names) => ({
    data: names.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-09-29T00:00:00Z' })),
    has_more: false,
    first_id: names[0] ?? null,
    last_id: names.at(-1) ?? null,
  }),
  errorType: (status) => errorTypes[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'),
  errorBody: (_status, message, type) => ({ type: 'error', error: { type, message }, request_id: 'req_fake_1' }),
  json(reply, request) {
    const usage = usageOf(reply);
    const { blocks, stop } = blocksOf(reply, request);
    return {
      id: 'msg_fake_1',
      type: 'message',
      role: 'assistant',
      model: reply.model ?? request.body?.model ?? 'fake-model',
      content: blocks,
      stop_reason: stop,
      stop_sequence: null,
      usage: { input_tokens: usage.input, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: usage.output, service_tier: 'standard' },
    };
  },
  stream(reply, request) {
    const usage = usageOf(reply);
    const { blocks, stop } = blocksOf(reply, request);
    const model = reply.model ?? request.body?.model ?? 'fake-model';
    const events = [
      sse(
        {
          type: 'message_start',
          message: {
            id: 'msg_fake_1',
            type: 'message',
            role: 'assistant',
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: usage.input, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1, service_tier: 'standard' },
          },
        },
        'message_start',
      ),
    ];
    blocks.forEach((block, index) => {
      if (block.type === 'text') {
        events.push(sse({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start'));
        if (index === 0) events.push(sse({ type: 'ping' }, 'ping'));
        for (const part of deltasOf(String(block.text))) {
          events.push(sse({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: part } }, 'content_block_delta'));
        }
      } else {
        events.push(sse({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }, 'content_block_start'));
        for (const part of deltasOf(JSON.stringify(block.input), 6)) {
          events.push(sse({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part } }, 'content_block_delta'));
        }
      }
      events.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
    });
    events.push(sse({ type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output } }, 'message_delta'));
    events.push(sse({ type: 'message_stop' }, 'message_stop'));
    return events;
  },
  streamContentType: 'text/event-stream; charset=utf-8',
};
