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
import { docs } from './docs';

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
        summary: docs.login.summary,
        description: docs.login.description,
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
        memberFigures: true,
        tag,
        summary: docs.me.summary,
        description: docs.me.description,
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
        summary: docs.logout.summary,
        description: docs.logout.description,
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
        summary: docs.changePassword.summary,
        description: docs.changePassword.description,
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
        summary: docs.acceptInvitation.summary,
        description: docs.acceptInvitation.description,
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
