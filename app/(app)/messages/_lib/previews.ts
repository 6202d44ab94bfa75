/**
 * Which attachments the reading pane previews, and how: raster images as an `<img>`, PDFs in a frame,
 * both from the attachment route's `?preview=true` (served inline with their exact type and a policy
 * that loads nothing: server/domains/mail/attachments/download-headers.ts `previewHeaders`, the same
 * list of types). Never HTML, SVG or anything else a browser would run.
 */
const imageTypes = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/pjpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);

export type PreviewKind = 'image' | 'pdf';

export function previewKindOf(mime: string): PreviewKind | null {
  const type = mime.split(';', 1)[0]!.trim().toLowerCase();
  if (imageTypes.has(type)) return 'image';
  if (type === 'application/pdf') return 'pdf';
  return null;
}

export function previewUrl(downloadUrl: string): string {
  return `${downloadUrl}${downloadUrl.includes('?') ? '&' : '?'}preview=true`;
}
