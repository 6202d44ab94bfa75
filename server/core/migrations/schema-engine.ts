/**
 * Prisma's WebAssembly schema engine, the offline stand-in for the native `prisma migrate` engine
 * (which these machines cannot download).
 *
 * The package's entry does `import * as wasm from './schema_engine_bg.wasm'`, which needs
 * `node --experimental-wasm-modules`. We instantiate the same `.wasm` file ourselves against the
 * package's JavaScript glue instead, so migrations run from plain `tsx`, from vitest workers and from
 * `scripts/start.ts` without any Node flag.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as glue from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { SchemaEngine } from '@prisma/schema-engine-wasm';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';

export type { SchemaEngine };

/** The filters argument every engine command takes; we keep no externally managed tables. */
export const noSchemaFilter = { externalTables: [], externalEnums: [] };

let loading: Promise<void> | null = null;

/**
 * The engine reports a Rust panic through this global before throwing; without it the panic
 * surfaces as an unrelated TypeError. We keep the last message to attach to the thrown error.
 */
const panicRegistry = { lastMessage: null as string | null, set_message(message: string) { this.lastMessage = message; } };
(globalThis as { PRISMA_WASM_PANIC_REGISTRY?: typeof panicRegistry }).PRISMA_WASM_PANIC_REGISTRY ??= panicRegistry;

function loadWasm(): Promise<void> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    const wasmFile = path.join(path.dirname(require.resolve('@prisma/schema-engine-wasm')), 'schema_engine_bg.wasm');
    const { instance } = await WebAssembly.instantiate(await readFile(wasmFile), {
      './schema_engine_bg.js': glue as unknown as WebAssembly.ModuleImports,
    });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start: () => void }).__wbindgen_start();
  })();
  return loading;
}

export interface SchemaFile {
  path: string;
  content: string;
}

/**
 * The engine panics when constructed without a schema file; commands that take their input
 * explicitly (apply, diff) only need it to name the provider.
 */
const datasourceOnlySchema: SchemaFile = { path: 'schema.prisma', content: 'datasource db {\n  provider = "postgresql"\n}\n' };

/**
 * Opens an engine over `adapterFactory` (connected at once: the engine probes the server version).
 * Callers must `free()` it; prefer `withSchemaEngine`.
 */
export async function openSchemaEngine(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  schemaFiles: SchemaFile[] = [],
  log: (message: string) => void = () => {},
): Promise<SchemaEngine> {
  await loadWasm();
  const files = schemaFiles.length > 0 ? schemaFiles : [datasourceOnlySchema];
  const datamodels: [string, string][] = files.map((file) => [file.path, file.content]);
  return glue.SchemaEngine.new({ datamodels }, log, bindMigrationAwareSqlAdapterFactory(adapterFactory));
}

export async function withSchemaEngine<T>(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  use: (engine: SchemaEngine) => Promise<T>,
  schemaFiles: SchemaFile[] = [],
): Promise<T> {
  const connections = trackConnections(adapterFactory);
  const engine = await openSchemaEngine(connections.factory, schemaFiles);
  try {
    return await use(engine);
  } finally {
    engine.free();
    await connections.disposeAll();
  }
}

/**
 * `free()` does not close the engine's connections. Left to the pool's idle timeout, the one that
 * took the migration advisory lock keeps it for ten seconds and the next engine waits for it.
 */
function trackConnections(factory: SqlMigrationAwareDriverAdapterFactory) {
  const opened: SqlDriverAdapter[] = [];
  const remember = async (connecting: Promise<SqlDriverAdapter>) => {
    const connection = await connecting;
    opened.push(connection);
    return connection;
  };
  return {
    factory: {
      provider: factory.provider,
      adapterName: factory.adapterName,
      connect: () => remember(factory.connect()),
      connectToShadowDb: () => remember(factory.connectToShadowDb()),
    } satisfies SqlMigrationAwareDriverAdapterFactory,
    disposeAll: async () => {
      await Promise.allSettled(opened.splice(0).map((connection) => connection.dispose()));
    },
  };
}

/** The engine's JS errors carry a useful message but a wasm-deep stack; keep only the message. */
export function engineErrorMessage(error: unknown): string {
  const panic = panicRegistry.lastMessage;
  if (panic) {
    panicRegistry.lastMessage = null;
    return `schema engine panicked: ${panic}`;
  }
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error && 'message' in error) return String((error as { message: unknown }).message);
  return String(error);
}
