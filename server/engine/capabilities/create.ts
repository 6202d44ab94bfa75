/**
 * The capabilities of a step (placeholder until the node catalogue lands: every call fails as a
 * permanent invalid parameter, so no run can act on anything through it).
 */
import type { Capabilities } from './types';
import { fail } from '../run/failures';

export function createCapabilities(_run: { executionId: string; memberId: string; simulated: boolean; effectKeyPrefix: string }): Capabilities {
  const refuse = async (): Promise<never> => {
    throw fail.permanent('internal', { message: 'This capability is not available yet.' });
  };
  return {
    mail: { findMessage: refuse, operate: refuse },
    tables: { lookup: refuse, write: refuse },
    http: { request: refuse },
    notify: { owner: refuse },
    signal: { mark: refuse },
    credentials: { read: refuse },
  };
}
