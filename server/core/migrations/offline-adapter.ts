/**
 * A driver adapter that reaches no database, for engine commands that only compare schema files
 * (`diff` between two datamodels). The engine insists on an adapter and probes it once when it
 * starts; this answers that probe as a PostgreSQL 16 server would and refuses everything else, so a
 * future engine that really needs a database fails loudly instead of diffing against nothing.
 */
import type {
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
  SqlQuery,
  SqlResultSet,
} from '@prisma/driver-adapter-utils';
import { ColumnTypeEnum } from '@prisma/driver-adapter-utils';

const adapterName = 'mailflow-offline';

function refuse(what: string): never {
  throw new Error(`the offline schema adapter cannot ${what}: this engine command needs a real database`);
}

function isStartupProbe(query: SqlQuery): boolean {
  return /current_setting\('server_version_num'\)/.test(query.sql) && /pg_namespace/.test(query.sql);
}

const startupProbeAnswer: SqlResultSet = {
  columnNames: ['exists', 'version', 'numeric_version'],
  columnTypes: [ColumnTypeEnum.Boolean, ColumnTypeEnum.Text, ColumnTypeEnum.Int32],
  rows: [[true, 'PostgreSQL 16.0 (mailflow offline schema adapter)', 160000]],
};

function offlineConnection(): SqlDriverAdapter {
  return {
    provider: 'postgres',
    adapterName,
    async queryRaw(query) {
      if (isStartupProbe(query)) return startupProbeAnswer;
      return refuse(`run ${query.sql.slice(0, 80)}`);
    },
    executeRaw: async () => refuse('execute statements'),
    executeScript: async () => refuse('execute scripts'),
    startTransaction: async () => refuse('open transactions'),
    getConnectionInfo: () => ({ schemaName: 'public', supportsRelationJoins: true }),
    dispose: async () => {},
  };
}

export function offlineAdapterFactory(): SqlMigrationAwareDriverAdapterFactory {
  return {
    provider: 'postgres',
    adapterName,
    connect: async () => offlineConnection(),
    connectToShadowDb: async () => refuse('open a shadow database'),
  };
}
