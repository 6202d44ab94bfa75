/**
 * A process that does what the runner's support sync does, in a loop, over the file-backed memory store: the
 * crash test (server/domains/support/sync/crash.int.test.ts) SIGKILLs it mid-delivery and starts another.
 * Environment: SUPPORT_STORE_FILE, CONTROL_PLANE_URL, CONTROL_PLANE_INSTANCE_ID, CONTROL_PLANE_SECRET.
 */
import { createControlPlaneClient } from '../../domains/support/sync/client';
import { runSupportSync } from '../../domains/support/sync/run';
import { MemorySupportStore } from './memory-store';

const environment = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const store = new MemorySupportStore(environment('SUPPORT_STORE_FILE'));
const client = createControlPlaneClient(
  { url: environment('CONTROL_PLANE_URL'), instanceId: environment('CONTROL_PLANE_INSTANCE_ID'), secret: environment('CONTROL_PLANE_SECRET') },
  { timeoutMs: 20_000 },
);

for (;;) {
  await runSupportSync({ store, client, random: () => 0 });
  await new Promise((resolve) => setTimeout(resolve, 100));
}
