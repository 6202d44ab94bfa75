/**
 * Advancing an execution: the engine's heart (being written; see ARCHITECTURE.md, Engine).
 */
export async function advanceExecution(_executionId: string, _runnerId: string): Promise<void> {
  // Implemented with the engine core.
}
