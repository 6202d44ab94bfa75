/**
 * Named prepared statements for the statements of a measured hot path (issue 25 §1). PostgreSQL parses and plans
 * an unnamed statement on every call; a named one once per connection, then runs its plan (a custom plan for the
 * first five calls, then the generic plan when it costs no more). Measured with `track_planning` on the engine
 * bench: planning alone was 40 % of PostgreSQL's CPU per run, 2.1 ms of it the admission's statement, planned
 * while it held the instance-wide admission lock.
 *
 * A registered text is named by a hash of itself, so two texts never share a name, and a text built from a bounded
 * set of shapes (a step write's columns) has one name per shape. At most `maxStatements` texts are named in a
 * process: one more is sent unnamed, so a text that is not in fact bounded cannot fill the server's memory.
 *
 * Three ways a registered statement is sent named:
 * - on the pool: `pool().query({ ...prepared(text), values })`;
 * - through Prisma (`$queryRawUnsafe(prepared(text).text, …)`): the driver adapter asks `statementName` for each
 *   statement (core/db/index.ts);
 * - in a simple-protocol query, which takes no parameters (several statements in one implicit transaction):
 *   `PREPARE` once per connection (`ensurePrepared`), then `EXECUTE name(literals)`.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { log } from '../log';
import { inlinedSql } from './inline-sql';

const maxStatements = 200;
const names = new Map<string, string>();
let capReported = false;

export interface PreparedText {
  /** Undefined beyond the cap: sent unnamed. */
  name: string | undefined;
  text: string;
}

/** Registers `text` as a prepared statement and answers its name with it. */
export function prepared(text: string): PreparedText {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= maxStatements) {
      if (!capReported) log.warn({ maxStatements }, 'more distinct statements registered as prepared than the cap; the others are sent unnamed');
      capReported = true;
      return { name: undefined, text };
    }
    name = `mf_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return { name, text };
}

/**
 * Forgets every registered text (for tests of the cap). Safe at any time: names are the texts' hashes, so a text
 * registered again gets the name it had, which the connections that prepared it still know by the same text.
 */
export function forgetPreparedForTests(): void {
  names.clear();
  capReported = false;
}

/** The name of a registered text, for the Prisma driver adapter's `statementNameGenerator`; undefined: unnamed. */
export function statementName(text: string): string | undefined {
  return names.get(text);
}

/** A statement for `PREPARE`: its text with `$1…$n` and the types of those parameters, in order. */
export interface SqlPreparedStatement {
  text: string;
  parameterTypes: readonly string[];
}

const preparedOnConnection = new WeakMap<pg.ClientBase, Set<string>>();

/**
 * Prepares the statements on this connection, once per connection (a connection the pool replaces is a new
 * client, prepared again); with `timeoutMs`, each PREPARE under that `statement_timeout` (it takes its tables'
 * locks). Answers their names, for `EXECUTE`. A statement beyond the cap is answered null: the caller sends its
 * text instead.
 */
export async function ensurePrepared(
  client: pg.ClientBase,
  statements: readonly SqlPreparedStatement[],
  options: { timeoutMs?: number } = {},
): Promise<(string | null)[]> {
  let done = preparedOnConnection.get(client);
  if (!done) preparedOnConnection.set(client, (done = new Set()));
  const result: (string | null)[] = [];
  for (const statement of statements) {
    const { name } = prepared(statement.text);
    if (name === undefined) {
      result.push(null);
      continue;
    }
    if (!done.has(name)) {
      try {
        // Analysing the statement locks its tables: bounded as the statement's own run is, when the caller bounds it.
        const bound = options.timeoutMs === undefined ? '' : `${timeoutStatement(options.timeoutMs)};\n`;
        const types = statement.parameterTypes.length === 0 ? '' : ` (${statement.parameterTypes.join(', ')})`;
        await client.query(`${bound}PREPARE ${name}${types} AS ${statement.text}`);
      } catch (error) {
        // Prepared already on this connection (the same text, so the same statement): nothing to do.
        if ((error as { code?: string }).code !== '42P05') throw error;
      }
      done.add(name);
    }
    result.push(name);
  }
  return result;
}

/**
 * The simple-protocol text that runs a statement `ensurePrepared` answered, with these values written in as
 * literals (inline-sql.ts): `EXECUTE name(…)`, or the statement's own text when it was not named (the cap).
 */
export function executeText(name: string | null, statement: SqlPreparedStatement, values: readonly unknown[]): string {
  if (name === null) return inlinedSql({ text: statement.text, values });
  // A statement without parameters is executed without parentheses (`EXECUTE name()` is a syntax error).
  const parameters = values.length === 0 ? '' : `(${values.map((_, index) => `$${index + 1}`).join(', ')})`;
  return inlinedSql({ text: `EXECUTE ${name}${parameters}`, values });
}

/**
 * One simple-protocol round trip on a connection of `pool` (its statements one implicit transaction): `statements`
 * prepared once per connection, then the texts `build` makes from their names (`executeText`). With `timeoutMs`
 * the transaction runs under that `statement_timeout` (set first, in the same round trip) and so do the PREPAREs.
 * Answers the results of `build`'s texts, in order. A connection whose query failed is not given to another caller,
 * as the pool's own `query` does.
 */
export async function preparedRoundTrip(
  pool: pg.Pool,
  statements: readonly SqlPreparedStatement[],
  build: (names: (string | null)[]) => string[],
  options: { timeoutMs?: number } = {},
): Promise<pg.QueryResult[]> {
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    const names = await ensurePrepared(client, statements, options);
    const bound = options.timeoutMs === undefined ? [] : [timeoutStatement(options.timeoutMs)];
    const results = (await client.query([...bound, ...build(names)].join(';\n'))) as unknown as pg.QueryResult | pg.QueryResult[];
    return (Array.isArray(results) ? results : [results]).slice(bound.length);
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.release(failure);
  }
}

/** This transaction's `statement_timeout`, for the statements after it in a simple-protocol query. */
export function timeoutStatement(timeoutMs: number): string {
  return `SELECT set_config('statement_timeout', '${Math.trunc(timeoutMs)}', true)`;
}
