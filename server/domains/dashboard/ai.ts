import type { AuthenticatedActor } from '../../core/auth/access';
import type { DashboardQuery } from './query';
import type { AiFigures } from './schemas';

export async function aiFigures(_actor: AuthenticatedActor, _query: DashboardQuery): Promise<AiFigures> {
  throw new Error('TODO(lane dash-mail-ai): not written yet');
}
