/**
 * Inline images (`<img src="cid:…">`, parts of the same message) pointed at their download URLs in
 * an already sanitised body. Kept apart from sanitising so the sanitised text can be cached per
 * message while the URLs (which may carry a short-lived token one day) are filled in on every call.
 *
 * The sanitiser writes each kept reference as `src="cid:<canonical id>"` (`canonicalCid`: only
 * `[A-Za-z0-9._%-]`), inside an `<img` tag; serialised text and attribute values cannot contain that
 * sequence (text escapes `<`, attribute values escape `"`), so a plain search finds exactly those.
 */
import { classifyUrl } from './url-policy';

/** An `<img` tag's attributes (serialised values are always double-quoted), then the reference. */
const reference = /(<img(?:\s+[^\s"'<>/=]+(?:="[^"]*")?)*?\s+src=")cid:([A-Za-z0-9._%-]{1,3000})"/g;

/** An absolute http(s) URL, or a path on this origin (`/api/v1/…`); anything else is not used. */
function usableUrl(url: string): string | null {
  if (/^\/(?![/\\])[A-Za-z0-9\-._~!$&'()*+,;=:@%/?]*$/.test(url)) return url;
  const target = classifyUrl(url);
  return target.kind === 'remote' ? target.url : null;
}

/**
 * `safeHtml` (output of `sanitizeMailHtml`) with each `cid:` image reference replaced by the URL
 * `urlOf` gives for its content id (without angle brackets); references it has no URL for stay as
 * they are (the frame shows a missing image).
 */
export function rewriteCidReferences(safeHtml: string, urlOf: ReadonlyMap<string, string> | ((contentId: string) => string | null | undefined)): string {
  const lookup = typeof urlOf === 'function' ? urlOf : (contentId: string) => urlOf.get(contentId);
  return safeHtml.replace(reference, (match, head: string, encoded: string) => {
    let contentId: string;
    try {
      contentId = decodeURIComponent(encoded);
    } catch {
      return match;
    }
    const url = lookup(contentId);
    const usable = typeof url === 'string' ? usableUrl(url) : null;
    return usable === null ? match : `${head}${usable.replaceAll('&', '&amp;')}"`;
  });
}
