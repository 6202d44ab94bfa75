/**
 * The part of html-to-text's API `body-text.ts` uses (the package ships no types, and
 * @types/html-to-text is not a dependency). It is the converter mailparser itself uses for mail whose
 * only body is HTML.
 */
declare module 'html-to-text' {
  export interface SelectorDefinition {
    selector: string;
    format?: string;
    options?: Record<string, unknown>;
  }
  export interface HtmlToTextOptions {
    wordwrap?: number | false | null;
    preserveNewlines?: boolean;
    selectors?: SelectorDefinition[];
    limits?: { ellipsis?: string; maxChildNodes?: number; maxDepth?: number; maxInputLength?: number };
  }
  export function convert(html: string, options?: HtmlToTextOptions): string;
  export function compile(options?: HtmlToTextOptions): (html: string) => string;
}
