import { z } from 'zod';
import { passwordBounds } from '../../core/auth/password';
import { memberSchema, nameInput } from '../members/schemas';

export const loginInput = z.object({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(1000),
});

export const newPasswordInput = z.string().min(passwordBounds.min).max(passwordBounds.max);

export const memberOutput = z.object({ member: memberSchema });

/** `auth/me`: the member, and whether they still sign in with a generated password. */
export const meOutput = memberOutput.extend({ mustChangePassword: z.boolean() });

export const changePasswordInput = z.object({
  currentPassword: z.string().min(1).max(1000),
  newPassword: newPasswordInput,
});

export const changePasswordOutput = z.object({
  member: memberSchema,
  sessionsRevoked: z.number().int().min(0),
});

export const logoutOutput = z.object({ signedOut: z.literal(true) });

export const acceptInvitationInput = z.object({
  token: z.string().min(1).max(200),
  name: nameInput,
  password: newPasswordInput,
});
