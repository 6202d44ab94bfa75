import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import type { RequestContext } from '../../trpc/context';
import {
  acceptInvitationInput,
  changePasswordInput,
  changePasswordOutput,
  loginInput,
  logoutOutput,
  meOutput,
  memberOutput,
} from './schemas';
import { acceptInvitation, changePassword, currentMember, signIn, signOut } from './service';

const tag = 'Session';

function originOf(ctx: RequestContext) {
  return { ip: ctx.ip, userAgent: ctx.headers.get('user-agent'), secure: ctx.secure, local: ctx.local };
}

export const authRouter = router({
  login: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/auth/login',
        access: { kind: 'public' },
        errors: ['auth.invalid_credentials', 'auth.too_many_attempts', 'auth.https_required', 'auth.busy'],
        tag,
        summary: { en: 'Sign in', fr: 'Se connecter' },
        description: {
          en: 'Checks the email and password and sets the `session` cookie (HttpOnly, SameSite=Lax, Secure in production). Rate-limited per IP.',
          fr: 'Vérifie l’adresse et le mot de passe puis pose le cookie `session` (HttpOnly, SameSite=Lax, Secure en production). Limité par adresse IP.',
        },
      }),
    )
    .input(loginInput)
    .output(memberOutput)
    .mutation(async ({ ctx, input }) => {
      const { member, cookie } = await signIn(originOf(ctx), input);
      ctx.responseHeaders.append('Set-Cookie', cookie);
      return { member };
    }),

  me: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/auth/me',
        access: { kind: 'member' },
        tag,
        summary: { en: 'Signed-in member', fr: 'Membre connecté' },
        description: {
          en: 'Returns the member behind the session, or behind the API key (any scope). `mustChangePassword` is true while the member still signs in with a generated password (the first administrator’s, when ADMIN_PASSWORD was not set); changing the password (POST /api/v1/me/password) clears it.',
          fr: 'Renvoie le membre de la session, ou celui de la clé d’API (quelle que soit sa portée). `mustChangePassword` vaut true tant que le membre se connecte avec un mot de passe généré (celui du premier administrateur, quand ADMIN_PASSWORD n’était pas défini) ; changer le mot de passe (POST /api/v1/me/password) le remet à false.',
        },
      }),
    )
    .output(meOutput)
    .query(({ ctx }) => currentMember(actorOf(ctx))),

  logout: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/auth/logout',
        access: { kind: 'session' },
        tag,
        summary: { en: 'Sign out', fr: 'Se déconnecter' },
        description: {
          en: 'Ends the current session and clears the cookie.',
          fr: 'Met fin à la session en cours et efface le cookie.',
        },
      }),
    )
    .output(logoutOutput)
    .mutation(async ({ ctx }) => {
      const { signedOut, cookie } = await signOut(actorOf(ctx));
      ctx.responseHeaders.append('Set-Cookie', cookie);
      return { signedOut };
    }),

  changePassword: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/me/password',
        access: { kind: 'session' },
        errors: ['auth.wrong_password', 'auth.busy'],
        tag,
        summary: { en: 'Change my password', fr: 'Changer mon mot de passe' },
        description: {
          en: 'Checks the current password, sets the new one (10 to 200 characters) and signs out every other session of the member.',
          fr: 'Vérifie le mot de passe actuel, enregistre le nouveau (10 à 200 caractères) et ferme toutes les autres sessions du membre.',
        },
      }),
    )
    .input(changePasswordInput)
    .output(changePasswordOutput)
    .mutation(({ ctx, input }) => changePassword(actorOf(ctx), input, ctx.ip)),

  acceptInvitation: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/auth/invitations/accept',
        access: { kind: 'public' },
        status: 201,
        errors: ['request.not_found', 'governance.email_taken', 'auth.https_required', 'auth.too_many_attempts', 'auth.busy'],
        tag,
        summary: { en: 'Accept an invitation', fr: 'Accepter une invitation' },
        description: {
          en: 'Creates the invited member with the given name and password and signs them in. An unknown, expired, revoked or used token is 404. Like sign-in, refused when not over HTTPS in production and rate-limited per IP (IPv6: per /64).',
          fr: 'Crée le membre invité avec ce nom et ce mot de passe, puis ouvre sa session. Un jeton inconnu, expiré, révoqué ou déjà utilisé donne 404. Comme la connexion, refusé hors HTTPS en production et limité par adresse IP (IPv6 : par /64).',
        },
      }),
    )
    .input(acceptInvitationInput)
    .output(memberOutput)
    .mutation(async ({ ctx, input }) => {
      const { member, cookie } = await acceptInvitation(originOf(ctx), input);
      ctx.responseHeaders.append('Set-Cookie', cookie);
      return { member };
    }),
});
