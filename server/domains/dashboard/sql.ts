/**
 * The dashboard's statements are built as plain `{text, values}` rather than Prisma tagged templates so the route
 * and the bench (bench/dashboard.ts, bare pg) run the very same SQL: the bench's floor is the route's own text.
 */
export interface SqlStatement {
  text: string;
  values: unknown[];
}

/** Numbered parameters, each with its cast when given: `add(id, 'uuid')` → `$3::uuid`. */
export class SqlParams {
  readonly values: unknown[] = [];
  add(value: unknown, cast?: 'timestamptz' | 'uuid' | 'text'): string {
    this.values.push(value);
    return cast === undefined ? `$${this.values.length}` : `$${this.values.length}::${cast}`;
  }
}
