/** English strings of signing in and accepting an invitation. */

export const enAuth = {
  login: {
    metaTitle: 'Sign in',
    title: (brand: string) => `Sign in to ${brand}`,
    subtitle: 'Welcome back. Enter your email and password.',
    email: 'Email',
    password: 'Password',
    submit: 'Sign in',
    submitting: 'Signing in…',
    emailRequired: 'Enter your email address.',
    passwordRequired: 'Enter your password.',
    rateLimited: (wait: string) => `Too many sign-in attempts. Try again in ${wait}.`,
    rateLimitOver: 'You can try again now.',
    invitationHint: 'Invited to the team? Open the link from your invitation to create your account.',
    suspended: 'This instance is suspended. Contact your provider.',
    support: 'Need help?',
  },
  accept: {
    metaTitle: 'Accept invitation',
    title: 'Join the team',
    subtitle: (brand: string) => `Create your ${brand} account.`,
    name: 'Your name',
    nameRequired: 'Enter your name.',
    password: 'Password',
    confirm: 'Confirm password',
    submit: 'Create account',
    submitting: 'Creating your account…',
    noToken: {
      title: 'This link is incomplete',
      body: 'Open the invitation link exactly as you received it, or ask an administrator for a new one.',
    },
    invalid: {
      title: 'This invitation cannot be used',
      body: 'It has expired, was revoked or was already used. Ask an administrator for a new invitation.',
    },
    haveAccount: 'Already have an account?',
    signIn: 'Sign in',
  },
};
