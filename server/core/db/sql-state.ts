/**
 * SQLSTATE codes of database errors, whichever way they arrive: through Prisma's driver adapter
 * (`meta.driverAdapterError.cause.originalCode`, or Prisma's own `P2002`/`P2034`) or straight from pg.
 */

/** The states this code base reacts to, by name. */
export const sqlStates = {
  uniqueViolation: '23505',
  invalidTextRepresentation: '22P02',
  numericValueOutOfRange: '22003',
  serializationFailure: '40001',
  deadlockDetected: '40P01',
  queryCanceled: '57014',
  idleInTransactionTimeout: '25P03',
} as const;

/** SQLSTATE of a database error, whether it came through Prisma's driver adapter or straight from pg. */
export function sqlStateOf(error: unknown): string | null {
  const candidate = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; code?: unknown } } } };
  const cause = candidate?.meta?.driverAdapterError?.cause;
  const code = cause?.originalCode ?? cause?.code ?? candidate?.code;
  if (code === 'P2002') return sqlStates.uniqueViolation;
  if (code === 'P2034') return sqlStates.deadlockDetected;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : null;
}

export function isUniqueViolation(error: unknown): boolean {
  return sqlStateOf(error) === sqlStates.uniqueViolation;
}
