import type { AuthenticatedActor } from '../../core/auth/access';
import type { DashboardQuery } from './query';
import type { MailFigures } from './schemas';

export async function mailFigures(_actor: AuthenticatedActor, _query: DashboardQuery): Promise<MailFigures> {
  throw new Error('TODO(lane dash-mail-ai): not written yet');
}
