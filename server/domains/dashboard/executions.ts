import type { AuthenticatedActor } from '../../core/auth/access';
import type { DashboardQuery } from './query';
import type { ExecutionsFigures } from './schemas';

export async function executionFigures(_actor: AuthenticatedActor, _query: DashboardQuery): Promise<ExecutionsFigures> {
  throw new Error('TODO(lane dash-exec): not written yet');
}
