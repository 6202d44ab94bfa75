/**
 * What request handlers may import: the cheap status check (one query, no schema engine).
 * Applying migrations loads the engine's WebAssembly; import it from `./apply-migrations`, which
 * the web build then never traces.
 */
export { migrationStatus, type MigrationStatus, type StatusSource } from './migration-status';
