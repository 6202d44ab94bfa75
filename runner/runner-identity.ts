/**
 * This runner process's identity in leases (mailboxes, executions): host, pid and a random part so
 * a restarted process with a recycled pid is a new owner.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

let identity: string | null = null;

export function runnerIdentity(): string {
  identity ??= `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  return identity;
}
