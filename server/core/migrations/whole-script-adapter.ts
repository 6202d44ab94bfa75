/**
 * The PostgreSQL driver adapter for the schema engine, with migration scripts run the way
 * `prisma migrate deploy` runs them.
 *
 * `@prisma/adapter-pg`'s `executeScript` cuts a script at every `;` and sends the pieces one by one,
 * so a semicolon in a comment, a string literal or a function body breaks the migration, and a
 * failure halfway leaves the first half applied. The native engine sends the whole script in one
 * simple-protocol round trip instead: PostgreSQL parses the statements itself and runs them in one
 * implicit transaction, so a failing migration leaves nothing behind. `pg` uses the simple protocol
 * for a query without parameters, which is what this does. Everything else is the stock adapter.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import {
  DriverAdapterError,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import pg from 'pg';

type PgAdapter = Awaited<ReturnType<PrismaPg['connect']>>;

export function wholeScriptAdapterFactory(config: pg.PoolConfig): SqlMigrationAwareDriverAdapterFactory {
  const stock = new PrismaPg(config);
  return {
    provider: stock.provider,
    adapterName: stock.adapterName,
    connect: async () => runScriptsWhole(await stock.connect()),
    connectToShadowDb: async () => runScriptsWhole(await stock.connectToShadowDb()),
  };
}

function runScriptsWhole(connection: PgAdapter): SqlDriverAdapter {
  const pool = connection.underlyingDriver();
  return {
    provider: connection.provider,
    adapterName: connection.adapterName,
    queryRaw: (query) => connection.queryRaw(query),
    executeRaw: (query) => connection.executeRaw(query),
    startTransaction: (isolationLevel) => connection.startTransaction(isolationLevel),
    getConnectionInfo: () => connection.getConnectionInfo(),
    dispose: () => connection.dispose(),
    async executeScript(script) {
      try {
        await pool.query(script);
      } catch (error) {
        throw asDriverError(error);
      }
    },
  };
}

/**
 * A server error travels to the engine as PostgreSQL's own code and message, which the engine puts
 * in its error and in `_prisma_migrations.logs`. Anything else (a dropped connection) is passed on
 * as is and reported by the engine as a JavaScript error.
 */
function asDriverError(error: unknown): unknown {
  if (!(error instanceof pg.DatabaseError)) return error;
  return new DriverAdapterError({
    kind: 'postgres',
    code: error.code ?? 'N/A',
    severity: error.severity ?? 'ERROR',
    message: error.message,
    detail: error.detail,
    column: error.column,
    hint: error.hint,
  });
}
