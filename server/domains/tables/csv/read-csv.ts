/**
 * Reads an uploaded CSV file (the text of a JSON body, so already within the 5 MiB body bound) with
 * csv-parse's streaming parser, under ceilings checked as the records arrive:
 *
 * - lines: at most `maxLines` after the header (the table's row ceiling or its remaining room); the
 *   first line past it stops the parse at once (a 5 MiB file of one-character lines is 1.7 million
 *   lines: parsing it whole took 1.2 GB of heap and blocked the event loop for 2.6 s);
 * - fields per line (`maxFields`) and characters per line (`maxLineChars`, csv-parse's
 *   `max_record_size`);
 * - only the first `keep` records are kept (a preview keeps 20, an import all of them).
 *
 * The text goes to the parser in small chunks with a turn of the event loop between two of them, and
 * again every few thousand records, so other requests keep being served during a large import.
 */
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { appError, isAppError, type AppError } from '../../../core/errors/app-error';
import { nextTurn } from '../../../core/event-loop';

export interface CsvRecord {
  /** Line number in the file (1 is the header), as a spreadsheet shows it. */
  line: number;
  fields: string[];
}

export interface CsvLimits {
  /** Lines after the header. */
  maxLines: number;
  maxFields: number;
  maxLineChars: number;
  /** Records kept (the others are only counted). */
  keep: number;
}

export interface CsvFile {
  headers: string[];
  records: CsvRecord[];
  /** Lines after the header (every one of them, kept or not). */
  lineCount: number;
}

/** Characters handed to the parser per turn of the event loop. */
const chunkChars = 16 * 1024;
/** Records parsed between two turns of the event loop (on top of one turn per chunk). */
const recordsPerTurn = 2000;

async function* chunksOf(text: string): AsyncGenerator<string> {
  for (let offset = 0; offset < text.length; offset += chunkChars) {
    yield text.slice(offset, offset + chunkChars);
    await nextTurn();
  }
}

function unreadable(reason: string, message: string, details: Record<string, unknown> = {}): AppError {
  return appError('request.bad_request', { message, details: { reason, ...details } });
}

/** The line ceiling passed: the caller says what it means (the row ceiling, the table's room). */
export class TooManyLinesError extends Error {
  constructor(readonly maxLines: number) {
    super(`more than ${maxLines} lines`);
  }
}

function parserErrorOf(error: unknown): AppError {
  const code = (error as { code?: unknown })?.code;
  const detail = error instanceof Error ? error.message : String(error);
  if (code === 'CSV_MAX_RECORD_SIZE') return unreadable('csv_line_too_long', 'A line of the file is too long.', { detail });
  return unreadable('csv_unreadable', 'The file is not readable as CSV.', { detail });
}

export async function readCsv(text: string, limits: CsvLimits): Promise<CsvFile> {
  const source = Readable.from(chunksOf(text));
  const parser = source.pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true, max_record_size: limits.maxLineChars }));
  let headers: string[] | null = null;
  const records: CsvRecord[] = [];
  let lineCount = 0;
  try {
    for await (const entry of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (entry.record.length > limits.maxFields) {
        throw unreadable('csv_too_many_fields', `A line has more than ${limits.maxFields} fields.`, { line: entry.info.lines, max: limits.maxFields });
      }
      if (headers === null) {
        headers = entry.record.map((name) => name.trim());
        continue;
      }
      lineCount += 1;
      if (lineCount > limits.maxLines) throw new TooManyLinesError(limits.maxLines);
      if (records.length < limits.keep) records.push({ line: entry.info.lines, fields: entry.record });
      if (lineCount % recordsPerTurn === 0) await nextTurn();
    }
  } catch (error) {
    if (isAppError(error) || error instanceof TooManyLinesError) throw error;
    throw parserErrorOf(error);
  } finally {
    parser.destroy();
    source.destroy();
  }
  if (headers === null) throw unreadable('csv_empty', 'The file is empty.');
  return { headers, records, lineCount };
}
