/**
 * A statement with its parameters written in as literals, for a simple-protocol query: the one way to send
 * several statements in one round trip (PostgreSQL runs them as one implicit transaction), and the simple
 * protocol takes no parameters. Only what a literal can say exactly: text (escaped by pg, quotes and
 * backslashes included), finite numbers, booleans and null; anything else is refused rather than guessed.
 * Every `$n` of the statement's text is read as a placeholder: a text with `$n` of its own (a dollar-quoted body,
 * a literal) is not one to give it.
 */
import pg from 'pg';

/** The part of a Prisma.Sql (or any `$n` statement) this needs: its text and its values in order. */
export interface NumberedStatement {
  text: string;
  values: readonly unknown[];
}

/**
 * A value left as a parameter of the text (`$n`) rather than written in: for a statement prepared once with its
 * per-process constants written in and its per-call values as parameters (prepared.ts).
 */
export class Placeholder {
  constructor(readonly position: number) {}
}

export function inlinedSql(statement: NumberedStatement): string {
  // One pass over the statement's own text: a value holding `$2` is never read as a placeholder.
  return statement.text.replace(/\$(\d+)/g, (_, index: string) => {
    const position = Number(index);
    if (position < 1 || position > statement.values.length) throw new Error(`inlinedSql: no value for $${index}`);
    const value = statement.values[position - 1];
    if (value instanceof Placeholder) return `$${value.position}`;
    if (value === null || value === undefined) return 'NULL';
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (typeof value === 'boolean') return value ? 'true' : 'false';
    if (typeof value === 'string') return pg.escapeLiteral(value);
    throw new Error(`inlinedSql: $${index} is a ${Array.isArray(value) ? 'list' : typeof value}, not written as a literal`);
  });
}
