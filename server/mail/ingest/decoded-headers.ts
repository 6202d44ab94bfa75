/**
 * The decoded headers ingest reads (./ingest.ts); `ParsedMime.headers` holds these only. mailparser decodes
 * each header on its own (addresses parsed and rendered, DKIM signatures split into parameters, dates read),
 * so deciding only these gives the same values for a fraction of the work: a real message's header is
 * mostly Received, DKIM, ARC and vendor lines, which ingest reads raw (`headerLines`) if at all.
 */
export const decodedHeaderKeys = ['from', 'to', 'cc', 'reply-to', 'subject', 'date', 'message-id', 'in-reply-to', 'references'] as const;
export type DecodedHeaderKey = (typeof decodedHeaderKeys)[number];
const decodedHeaderSet: ReadonlySet<string> = new Set(decodedHeaderKeys);

/** A header line ingest reads decoded. */
export function isDecodedHeader(line: { key: string }): boolean {
  return decodedHeaderSet.has(line.key);
}
