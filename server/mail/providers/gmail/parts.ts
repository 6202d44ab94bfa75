/**
 * A MIME part of a Gmail message (format=full `payload`) found by its IMAP part number, the numbering
 * the ingest records (`partRef`: "2", "1.2"). Gmail numbers the same tree from 0 ("1", "0.1") and
 * gives a single-part message's body as the payload itself, which IMAP calls part 1. Pure.
 */

export interface GmailPart {
  partId?: string;
  mimeType?: string;
  filename?: string;
  body?: { attachmentId?: string; size?: number; data?: string };
  parts?: GmailPart[];
}

export function findGmailPart(payload: GmailPart | undefined, imapPart: string): GmailPart | null {
  if (!payload || !/^[1-9]\d{0,3}(\.[1-9]\d{0,3}){0,20}$/.test(imapPart)) return null;
  let node: GmailPart = payload;
  const segments = imapPart.split('.').map(Number);
  for (const [index, segment] of segments.entries()) {
    const children = Array.isArray(node.parts) ? node.parts : [];
    if (children.length > 0) {
      const child = children[segment - 1];
      if (!child) return null;
      node = child;
    } else if (segment === 1 && index === 0 && segments.length === 1) {
      return node; // a single-part body is part 1 of itself
    } else {
      return null;
    }
  }
  return node;
}
