/**
 * The part of jsdom's API the sanitiser uses (the package ships no types, and @types/jsdom is not a
 * dependency). `window` is a browser-like global: DOMPurify takes it as its `WindowLike`.
 */
declare module 'jsdom' {
  export class VirtualConsole {
    constructor();
  }
  export class JSDOM {
    constructor(html?: string, options?: { virtualConsole?: VirtualConsole });
    readonly window: Window & typeof globalThis;
  }
}
