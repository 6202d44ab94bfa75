/**
 * What the sanitiser promises, without loading it: the pool and its callers import this file, and
 * only the pool's threads load DOMPurify and jsdom.
 */

/** Bumped whenever a rule changes what the sanitiser outputs: part of every cache key. */
export const SANITIZER_VERSION = 'mail-html-1';

/** Longest HTML text sanitised; beyond it the text is cut (2 MiB of UTF-16 code units). */
export const maxInputChars = 2 * 1024 * 1024;

export interface SanitizeOptions {
  /** Keep remote images (img src, background, poster, CSS background images). Default false. */
  allowRemoteImages?: boolean;
}

export interface SanitizedHtml {
  /** A whole document (`<html><head>…</head><body>…</body></html>`), for a sandboxed frame's `srcdoc`. */
  html: string;
  /** The body refers to remote resources (shown or not, depending on `allowRemoteImages`). */
  hasRemoteImages: boolean;
  /** The input was cut at `maxInputChars`, or could not be sanitised at all: part of the body is missing. */
  truncated: boolean;
}

/** What a body that could not be sanitised (parser failure, time limit) is shown as. */
export const emptyDocument = '<html><head></head><body></body></html>';
