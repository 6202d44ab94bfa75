/**
 * The import dialog's rules, pure (import-export.test.tsx renders them; steps.test.ts checks them alone): which
 * format a file is, what the service's file-level reasons say in the reader's language, the 422's lines, and how
 * many lines an import would write.
 */
import type { ImportExportTexts } from './_i18n/en-import-export';
import type { ImportFormat, ImportPreview, RejectedLine } from './api';

/** The service's file bound (2 MiB of UTF-8); the browser checks the file's size first to spare the upload. */
export const maxImportBytes = 2 * 1024 * 1024;

/** vCard by extension or content (a file starting with BEGIN:VCARD), CSV otherwise. */
export function formatOf(name: string, text: string): ImportFormat {
  if (/\.(vcf|vcard)$/i.test(name)) return 'vcard';
  if (/\.csv$/i.test(name)) return 'csv';
  return /^\uFEFF?\s*BEGIN:VCARD/i.test(text) ? 'vcard' : 'csv';
}

interface ErrorInfo {
  code: string;
  details: Record<string, unknown>;
}

/** A file the service refused whole, said in the interface language; null when it is not such a refusal. */
export function fileRefusalText(info: ErrorInfo | null, d: ImportExportTexts['import']): string | null {
  if (!info) return null;
  if (info.code === 'request.payload_too_large') return d.tooLarge;
  if (info.code !== 'request.bad_request') return null;
  const header = typeof info.details.header === 'string' ? info.details.header : '';
  switch (info.details.reason) {
    case 'vcard_binary':
      return d.reasons.binary;
    case 'vcard_empty':
    case 'csv_empty':
      return d.reasons.empty;
    case 'too_many_entries':
      return d.reasons.tooManyEntries;
    case 'csv_unknown_header':
      return d.reasons.unknownHeader(header);
    case 'csv_duplicate_header':
      return d.reasons.duplicateHeader(header);
    case 'csv_value_missing':
      return d.reasons.valueMissing;
    case 'csv_unreadable':
    case 'csv_line_too_long':
    case 'csv_too_many_fields':
      return d.reasons.unreadable;
    default:
      return null;
  }
}

/** The lines of a 422 `contacts.import_rejected` (someone changed the file or the book between preview and import). */
export function rejectedOf(info: ErrorInfo | null): { lines: RejectedLine[]; count: number } | null {
  if (info?.code !== 'contacts.import_rejected') return null;
  const lines = Array.isArray(info.details.rejected) ? (info.details.rejected as RejectedLine[]) : [];
  return { lines, count: typeof info.details.count === 'number' ? info.details.count : lines.length };
}

/** Lines an import writes (new and updated ones); unchanged lines are not written. */
export const writtenCount = (preview: ImportPreview) => preview.counts.create + preview.counts.update;
