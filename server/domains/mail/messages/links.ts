/** Where a message's attachment is downloaded (the plain route of server/http/attachment-download-route.ts). */
export function attachmentDownloadPath(messageId: string, position: number): string {
  return `/api/v1/messages/${messageId}/attachments/${position}`;
}
