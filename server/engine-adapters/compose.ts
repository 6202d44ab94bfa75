/**
 * The engine's composition root: hands the engine (server/engine/composition.ts) the factory of the
 * capabilities its executors receive (./create.ts), the run-end hooks (./run-end-hooks.ts) and the
 * dispatcher's reads (the sender's address book card, ./contacts.ts). Every
 * process that runs the engine calls `composeEngine()` once at start-up: the runner (runner/main.ts),
 * the web process (server/http/main.ts: cancels end runs there) and the tests (server/testing's
 * `useTestDatabase`, runner/engine/testing/engine-worker.ts). Calling it again changes nothing.
 */
import { composeEngineWith } from '../engine';
import { senderContactOf } from './contacts';
import { createCapabilities, type CapabilityOptions } from './create';
import { runEndHooks } from './run-end-hooks';

let capabilityOptions: CapabilityOptions = {};

export function composeEngine(): void {
  composeEngineWith({ capabilities: (run) => createCapabilities(run, capabilityOptions), hooks: runEndHooks, reads: { senderContact: senderContactOf } });
}

/** Engine tests: capability options (the fake AI vendors' loopback addresses); refused outside tests. */
export function setCapabilityOptionsForTests(options: CapabilityOptions): void {
  if (!process.env.VITEST) throw new Error('Capability options are set by tests only.');
  capabilityOptions = options ?? {};
}
