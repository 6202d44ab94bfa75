/** Answers of plain routes that are not plain JSON. */

/**
 * A download streamed from an async generator of text chunks: pulled only as fast as the client
 * reads, and stopped (the generator's `finally` runs, releasing what it holds) when the client leaves.
 */
export function streamedDownload(chunks: AsyncGenerator<string>, headers: Record<string, string>): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(body, { headers: { 'cache-control': 'no-store', ...headers } });
}
