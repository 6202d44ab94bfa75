'use client';

import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { isLocale, locales } from '@/app/i18n';
import { errorCodeOf } from '@/app/lib/errors';
import type { Member } from '@/app/lib/trpc';
import { Badge } from '@/app/ui/badge';
import { cn } from '@/app/ui/cn';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/app/ui/dropdown-menu';
import { ChevronUpDownIcon, LockIcon, LogOutIcon } from '@/app/ui/icons';
import { useLogout } from './_lib/api';
import { ChangePasswordDialog } from './change-password-dialog';
import { loadPageAfterSessionChange } from '@/app/lib/navigation';
import { isTheme, themes } from '@/app/lib/theme';
import { useTheme } from '@/app/lib/use-theme';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? parts[parts.length - 1][0] : '')).toUpperCase() || '?';
}

export function Avatar({ name, className }: { name: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn('flex size-8 shrink-0 items-center justify-center rounded-full bg-brand/12 text-xs font-semibold text-brand-fg', className)}
    >
      {initials(name)}
    </span>
  );
}

export function UserMenu({ member, compact = false, onSignOutError }: { member: Member; compact?: boolean; onSignOutError: (error: unknown) => void }) {
  const { t, locale, setLocale } = useI18n();
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [theme, setTheme] = useTheme();

  const logout = useLogout({
    onSuccess: () => loadPageAfterSessionChange('/login'),
    onError: (error) => {
      // Already signed out elsewhere: the goal is reached.
      if (errorCodeOf(error) === 'auth.unauthenticated') loadPageAfterSessionChange('/login');
      else onSignOutError(error);
    },
  });

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger
          aria-label={t.userMenu.label(member.name)}
          className={cn(
            'flex items-center gap-2.5 rounded-md text-left transition-colors hover:bg-subtle data-[state=open]:bg-subtle',
            compact ? 'p-1' : 'w-full p-2',
          )}
        >
          <Avatar name={member.name} />
          {compact ? null : (
            <>
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-medium">{member.name}</span>
                <span className="block truncate text-xs text-muted">{member.email}</span>
              </span>
              <ChevronUpDownIcon className="shrink-0 text-muted" />
            </>
          )}
        </DropdownMenuTrigger>
        <DropdownMenuContent align={compact ? 'end' : 'start'} side={compact ? 'bottom' : 'top'} className="w-64">
          <div className="px-2 py-2">
            <p className="truncate text-sm font-medium">{member.name}</p>
            <p className="truncate text-xs text-muted">{member.email}</p>
            <Badge tone={member.role === 'admin' ? 'brand' : 'neutral'} className="mt-1.5">
              {t.roles[member.role]}
            </Badge>
          </div>
          <DropdownMenuSeparator />
          <DropdownMenuLabel>{t.language.label}</DropdownMenuLabel>
          <DropdownMenuRadioGroup value={locale} onValueChange={(value) => isLocale(value) && setLocale(value)}>
            {locales.map((code) => (
              <DropdownMenuRadioItem key={code} value={code} lang={code}>
                {t.language[code]}
              </DropdownMenuRadioItem>
            ))}
          </DropdownMenuRadioGroup>
          <DropdownMenuSeparator />
          <DropdownMenuLabel>{t.theme.label}</DropdownMenuLabel>
          <DropdownMenuRadioGroup value={theme} onValueChange={(value) => isTheme(value) && setTheme(value)}>
            {themes.map((choice) => (
              <DropdownMenuRadioItem key={choice} value={choice}>
                {t.theme[choice]}
              </DropdownMenuRadioItem>
            ))}
          </DropdownMenuRadioGroup>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => setPasswordOpen(true)}>
            <LockIcon />
            {t.userMenu.changePassword}
          </DropdownMenuItem>
          <DropdownMenuItem
            onSelect={(event) => {
              event.preventDefault();
              logout.mutate();
            }}
            disabled={logout.isPending}
          >
            <LogOutIcon />
            {t.userMenu.signOut}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <ChangePasswordDialog open={passwordOpen} onOpenChange={setPasswordOpen} />
    </>
  );
}
