/**
 * The HTML body of a mail made safe to show in a sandboxed frame (the API's `bodyHtmlSafe`:
 * sanitised on every call, never stored). DOMPurify over a jsdom window, HTML elements only (no SVG,
 * no MathML), then this module's own rules:
 *
 *   - removed elements: scripts, forms and their controls, frames, `object`/`embed`, `base`, `meta`,
 *     `link`, `template`, `noscript` and the like; comments (conditional comments included);
 *   - removed attributes: event handlers (DOMPurify), `srcset`, `ping`, `download`, `cite`, popover
 *     and invoker-command attributes, `data-*` (the only `data-remote-*` in the output are ours);
 *   - CSS: `<style>` text and `style` attributes rebuilt by `sanitize-css.ts` (no `@import`, no
 *     `expression()`, no bindings, no remote url() unless allowed);
 *   - URLs (`url-policy.ts`): links keep http, https and mailto only and open in a new, unrelated
 *     window (`target="_blank" rel="noopener noreferrer"`); `img src` may also be `cid:` (written in
 *     a canonical form `rewriteCidReferences` finds) or a base64 PNG/GIF/JPEG/WebP `data:` image;
 *   - remote resources (`src`, `background`, `poster`, CSS url()): moved aside into
 *     `data-remote-src` / `data-remote-background` / `data-remote-poster` (CSS ones become `none`)
 *     and reported as `hasRemoteImages`. With `allowRemoteImages`, remote images (`img src`,
 *     `background`, `poster`, CSS background images) stay; other remote resources never do.
 *
 * Bounds (what jsdom costs follows the elements more than the bytes, see `markup-bounds.ts`): the
 * text is cut at `maxInputChars` (2 MiB of UTF-16 code units) and before its 50,001st opening tag,
 * and nesting deeper than 256 elements is flattened; a cut tag or entity is simply dropped by the
 * parser, and the result says `truncated`. It never throws: should the parser fail anyway, the
 * result is an empty document marked `truncated`.
 *
 * One DOMPurify instance per thread, created on first use: hooks are global to an instance, so the
 * per-call state they need lives in `current`, set for the duration of one synchronous call.
 */
import createDOMPurify, { type Config, type DOMPurify, type WindowLike } from 'dompurify';
import { JSDOM, VirtualConsole } from 'jsdom';
import { boundMarkup } from './markup-bounds';
import { emptyDocument, maxInputChars, type SanitizedHtml, type SanitizeOptions } from './sanitize-contract';
import { sanitizeDeclarations, sanitizeStylesheet, type CssPolicy } from './sanitize-css';
import { canonicalCid, classifyUrl } from './url-policy';

export { SANITIZER_VERSION, maxInputChars, type SanitizedHtml, type SanitizeOptions } from './sanitize-contract';

const forbiddenTags = [
  ...['script', 'noscript', 'template', 'slot', 'shadow', 'content', 'element', 'decorator'],
  ...['form', 'input', 'button', 'select', 'option', 'optgroup', 'textarea', 'datalist', 'output', 'keygen', 'menuitem'],
  ...['iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'param', 'portal', 'fencedframe'],
  ...['base', 'meta', 'link', 'title', 'xmp', 'plaintext', 'listing', 'noembed', 'noframes', 'math', 'svg'],
];
const forbiddenAttributes = [
  ...['srcset', 'imagesrcset', 'sizes', 'ping', 'download', 'cite', 'longdesc', 'integrity', 'nonce', 'crossorigin'],
  ...['action', 'formaction', 'method', 'enctype', 'popover', 'popovertarget', 'popovertargetaction', 'command', 'commandfor'],
  ...['target', 'autofocus', 'is'],
];

const purifyConfig: Config = {
  WHOLE_DOCUMENT: true, // otherwise <style> in <head> is dropped
  RETURN_DOM: true, // the <html> element, serialised here once a <body> is sure to be in it
  USE_PROFILES: { html: true },
  FORBID_TAGS: forbiddenTags,
  FORBID_ATTR: forbiddenAttributes,
  ALLOW_DATA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  SAFE_FOR_XML: true,
};

/** State of the one sanitise call running on this thread (hooks read it). */
let current: { allowRemoteImages: boolean; remote: boolean } | null = null;

const cssPolicy: CssPolicy = {
  get allowRemoteImages() {
    return current?.allowRemoteImages ?? false;
  },
  onRemote() {
    if (current) current.remote = true;
  },
};

/** Whether `attribute` of `tag` shows an image (kept remote with `allowRemoteImages`). */
const isImageSlot = (tag: string, attribute: string) => (tag === 'img' && attribute === 'src') || attribute === 'background' || (tag === 'video' && attribute === 'poster');

function applyResourcePolicy(element: Element, tag: string, attribute: 'src' | 'background' | 'poster'): void {
  const value = element.getAttribute(attribute);
  if (value === null) return;
  const target = classifyUrl(value);
  element.removeAttribute(attribute);
  switch (target.kind) {
    case 'remote':
      if (current) current.remote = true;
      if (current?.allowRemoteImages && isImageSlot(tag, attribute)) element.setAttribute(attribute, target.url);
      else element.setAttribute(`data-remote-${attribute}`, target.url);
      return;
    case 'cid':
      if (tag === 'img' && attribute === 'src') element.setAttribute('src', canonicalCid(target.contentId));
      return;
    case 'data-image':
      if (tag === 'img' && attribute === 'src') element.setAttribute('src', target.url);
      return;
    case 'mailto':
    case 'refused':
      return;
  }
}

function applyLinkPolicy(element: Element, tag: string): void {
  const value = element.getAttribute('href');
  if (value === null) return;
  const target = classifyUrl(value);
  if ((tag === 'a' || tag === 'area') && (target.kind === 'remote' || target.kind === 'mailto')) {
    element.setAttribute('href', target.url);
    element.setAttribute('target', '_blank');
    element.setAttribute('rel', 'noopener noreferrer');
  } else {
    element.removeAttribute('href');
  }
}

function createPurifier(): DOMPurify {
  // A silent console: jsdom reports stylesheets it cannot parse, which hostile mail is full of.
  const { window } = new JSDOM('<!DOCTYPE html>', { virtualConsole: new VirtualConsole() });
  const purify = createDOMPurify(window as unknown as WindowLike);
  purify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName === '#comment') {
      node.parentNode?.removeChild(node);
    } else if (data.tagName === 'style') {
      // Before DOMPurify's own check, which drops a <style> whose text holds `<` (`<!-- … -->`).
      const css = sanitizeStylesheet(node.textContent ?? '', cssPolicy);
      if (css === '') node.parentNode?.removeChild(node);
      else node.textContent = css;
    }
  });
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    if (data.attrName === 'style') {
      data.attrValue = sanitizeDeclarations(data.attrValue, cssPolicy);
      if (data.attrValue === '') data.keepAttr = false;
    }
  });
  purify.addHook('afterSanitizeAttributes', (node) => {
    const element = node as Element;
    const tag = element.localName;
    if (typeof tag !== 'string') return;
    applyResourcePolicy(element, tag, 'src');
    applyResourcePolicy(element, tag, 'background');
    applyResourcePolicy(element, tag, 'poster');
    applyLinkPolicy(element, tag);
  });
  purify.setConfig(purifyConfig);
  return purify;
}

let purifier: DOMPurify | null = null;

/** `html` cut to `maxInputChars` code units, never between the two halves of a surrogate pair. */
function bound(html: string): { text: string; truncated: boolean } {
  if (html.length <= maxInputChars) return { text: html, truncated: false };
  const end = /[\ud800-\udbff]/.test(html[maxInputChars - 1]) ? maxInputChars - 1 : maxInputChars;
  return { text: html.slice(0, end), truncated: true };
}

/** The safe form of a mail's HTML body; see the module comment for what is kept. Pure and synchronous. */
export function sanitizeMailHtml(html: string, options: SanitizeOptions = {}): SanitizedHtml {
  purifier ??= createPurifier();
  const { text, truncated } = bound(typeof html === 'string' ? html : '');
  current = { allowRemoteImages: options.allowRemoteImages === true, remote: false };
  try {
    const bounded = boundMarkup(text);
    // null when jsdom's parser gave up (DOMPurify catches the parser's errors).
    const root = purifier.sanitize(bounded.html) as unknown as Element | null;
    if (!root) return { html: emptyDocument, hasRemoteImages: false, truncated: true };
    // A frameset document loses its only child: the output must read back as it was written.
    if (!root.querySelector(':scope > body')) root.appendChild(root.ownerDocument.createElement('body'));
    return { html: root.outerHTML, hasRemoteImages: current.remote, truncated: truncated || bounded.truncated };
  } catch {
    return { html: emptyDocument, hasRemoteImages: false, truncated: true };
  } finally {
    current = null;
  }
}
