/**
 * TEMPORARY until branch h-sanitize lands (its sanitiser pool replaces this file's body): no HTML is
 * served at all, so nothing unsanitised can ever reach a reader.
 */
interface BodySource {
  id: string;
  bodyHtml: string | null;
  attachments: { position: number; contentId: string | null }[];
}

export function safeBodyOf(_message: BodySource, _allowRemoteImages: boolean): Promise<{ html: string | null; hasRemoteImages: boolean }> {
  return Promise.resolve({ html: null, hasRemoteImages: false });
}
