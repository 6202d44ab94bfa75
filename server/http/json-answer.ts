/**
 * A JSON answer whose text the web server can write at once. A fetch Response only gives its body back as a
 * stream, and piping that stream to the socket (node-bridge.ts) costs more CPU than the rest of a small answer;
 * the text is kept beside the Response here so the bridge writes it in one call. Anything else reading the
 * Response (tests, a caller in process) reads its body as usual.
 */
const texts = new WeakMap<Response, string>();

/**
 * `data` as a JSON answer with this status (and the route's own `headers`); no body when `data` is undefined (a 204, a
 * procedure answering nothing). What `Response.json` answers, but written by the bridge in one call.
 */
export function jsonAnswer(data: unknown, status: number, headers: Record<string, string> = {}): Response {
  const text = data === undefined ? undefined : JSON.stringify(data);
  return textAnswer(text, status, { 'content-type': 'application/json', ...headers });
}

/** An answer whose text is already made (and its headers, content type included), written by the bridge in one call. */
export function textAnswer(text: string | undefined, status: number, headers: HeadersInit): Response {
  const response = new Response(text ?? null, { status, headers });
  if (text !== undefined) texts.set(response, text);
  return response;
}

/** The text of an answer made by jsonAnswer, when its body has not been read; undefined otherwise. */
export function bufferedTextOf(response: Response): string | undefined {
  return response.bodyUsed ? undefined : texts.get(response);
}
