/**
 * Parameters of a hand-built statement: each value is added once and named by its placeholder, so a
 * client's text never becomes SQL. The lists' statements are run on the pool directly (they are the
 * measured hot path, see bench/mail-lists.ts) and by the benchmark's floor as they are.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown, cast: string): string {
    this.values.push(value);
    return `$${this.values.length}::${cast}`;
  }
}

export interface Statement {
  text: string;
  values: unknown[];
}
