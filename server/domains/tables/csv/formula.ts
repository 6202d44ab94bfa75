/**
 * CSV injection (OWASP, "CSV Injection"): a spreadsheet opening an exported file treats a field that
 * starts with `=`, `+`, `-` or `@` as a formula (`=HYPERLINK(…)`, `=cmd|…`), and some also when it
 * starts with a tab or a carriage return. Such a field is prefixed with `'`, which spreadsheets take
 * as "this is text" and do not show. Programs that want the stored text ask the export for `raw=true`.
 */

const formulaStarts: ReadonlySet<string> = new Set(['=', '+', '-', '@', '\t', '\r']);

/** The text as a spreadsheet will show it but never run it. Looks at the first character only. */
export function neutraliseFormula(text: string): string {
  return text.length > 0 && formulaStarts.has(text[0]) ? `'${text}` : text;
}
