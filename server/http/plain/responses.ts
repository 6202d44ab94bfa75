/** Answers of plain routes that are not plain JSON. */

/** Text chunks pulled one at a time (an async generator, for one); `return()` stops the source early. */
export interface ChunkSource {
  next(): Promise<IteratorResult<string>>;
  return(): Promise<unknown>;
}

/**
 * A download streamed from a source of text chunks: pulled only as fast as the client reads, and
 * stopped (the source releases what it holds) when the client leaves.
 */
export function streamedDownload(chunks: ChunkSource, headers: Record<string, string>): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return();
    },
  });
  return new Response(body, { headers: { 'cache-control': 'no-store', ...headers } });
}
