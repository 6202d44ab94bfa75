/** OAuth applications and flows in the database. */
import { open } from '../../core/crypto/secret-box';
import { db, type Tx } from '../../core/db';
import type { OAuthProvider } from './providers';

type Reader = Pick<Tx, 'oAuthApp'>;

export function findApp(provider: OAuthProvider, tx: Reader = db()) {
  return tx.oAuthApp.findUnique({ where: { provider } });
}

/** The registered, active application with its opened secret, or null. */
export async function activeClient(provider: OAuthProvider, tx: Reader = db()): Promise<{ clientId: string; clientSecret: string } | null> {
  const app = await findApp(provider, tx);
  if (!app || app.status !== 'active') return null;
  return { clientId: app.clientId, clientSecret: open(app.clientSecretEnc, `oauth-app:${provider}`) };
}
