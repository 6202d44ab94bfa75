/** The link to the operator's control plane as configured (`config().controlPlane`; null: not linked). */
import { config } from '../../../core/config';
import type { ControlPlaneLink } from './client';

export function controlPlaneLink(): ControlPlaneLink | null {
  return config().controlPlane;
}
