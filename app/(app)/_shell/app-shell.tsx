'use client';

/** Frame of every signed-in page: side navigation (a sheet on small screens), user menu, main area. */
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { RealtimeProvider } from '@/app/lib/realtime';
import { Alert } from '@/app/ui/alert';
import { BrandMark } from '@/app/ui/brand-mark';
import { Button } from '@/app/ui/button';
import { Dialog, DialogClose, DialogTrigger, SheetContent } from '@/app/ui/dialog';
import { CloseIcon, MenuIcon } from '@/app/ui/icons';
import { cn } from '@/app/ui/cn';
import { RequiredPasswordChange } from './change-password-dialog';
import { SideNav } from './nav';
import { NotificationBell } from './notifications/notification-bell';
import { useLiveUpdates } from './_lib/live-api';
import { useMe } from './_lib/api';
import { useUnreadTitle } from './unread-title';
import { useSupportUnreadCount } from '../support/_lib/api';
import { UserMenu } from './user-menu';

export interface ShellBrand {
  name: string;
  logoLight: string | null;
  logoDark: string | null;
}

function UserSlot({ compact, onSignOutError }: { compact?: boolean; onSignOutError: (error: unknown) => void }) {
  const { t } = useI18n();
  const me = useMe();
  if (me.data) return <UserMenu member={me.data} compact={compact} onSignOutError={onSignOutError} />;
  if (me.isError) {
    return (
      <Button size="sm" variant="ghost" onClick={() => me.refetch()}>
        {t.userMenu.reload}
      </Button>
    );
  }
  return (
    <div role="status" className="flex items-center gap-2.5 p-2">
      <span className="sr-only">{t.common.loading}</span>
      <span className="size-8 animate-pulse rounded-full bg-subtle" />
      {compact ? null : (
        <span className="flex-1 space-y-1.5">
          <span className="block h-2.5 w-24 animate-pulse rounded bg-subtle" />
          <span className="block h-2.5 w-32 animate-pulse rounded bg-subtle" />
        </span>
      )}
    </div>
  );
}

/** Pages that use the whole width and height (three panes) instead of the reading column. */
const widePaths = ['/messages'];
/** Pages that keep the page's padding but use the whole width (the workflow builder's canvas). */
const fullWidthPath = /^\/workflows\/[^/]+$/;

function LiveUpdates() {
  useLiveUpdates();
  return null;
}

/** "(2) …" in the document title while support replies are unread (the navigation shows the same count). */
function UnreadTitle() {
  useUnreadTitle(useSupportUnreadCount());
  return null;
}

export function AppShell({ brand, children }: { brand: ShellBrand; children: ReactNode }) {
  return (
    <RealtimeProvider>
      <LiveUpdates />
      <UnreadTitle />
      <RequiredPasswordChange />
      <Shell brand={brand}>{children}</Shell>
    </RealtimeProvider>
  );
}

function Shell({ brand, children }: { brand: ShellBrand; children: ReactNode }) {
  const { t } = useI18n();
  const pathname = usePathname();
  const wide = widePaths.some((path) => pathname === path || pathname.startsWith(`${path}/`));
  const fullWidth = fullWidthPath.test(pathname);
  const me = useMe();
  const [menuOpen, setMenuOpen] = useState(false);
  const [signOutError, setSignOutError] = useState<unknown>(null);
  const isAdmin = me.data?.role === 'admin';
  const mark = <BrandMark name={brand.name} logoLight={brand.logoLight} logoDark={brand.logoDark} />;

  return (
    <div className="min-h-dvh md:pl-64">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-surface px-3 py-2 text-sm font-medium shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        {t.nav.skipToContent}
      </a>

      <aside className="fixed inset-y-0 left-0 hidden w-64 flex-col border-r border-line bg-surface md:flex">
        <div className="flex h-14 shrink-0 items-center gap-2 border-b border-line pr-2 pl-5">
          <Link href="/" className="min-w-0 flex-1 rounded-md">
            {mark}
          </Link>
          <NotificationBell />
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto">
          <SideNav isAdmin={isAdmin} />
        </div>
        <div className="shrink-0 border-t border-line p-2">
          <UserSlot onSignOutError={setSignOutError} />
        </div>
      </aside>

      <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-line bg-surface/90 px-3 backdrop-blur md:hidden">
        <Dialog open={menuOpen} onOpenChange={setMenuOpen}>
          <DialogTrigger asChild>
            <Button variant="ghost" size="icon" aria-label={t.nav.openMenu}>
              <MenuIcon size={18} />
            </Button>
          </DialogTrigger>
          <SheetContent title={t.nav.label}>
            <div className="flex h-14 shrink-0 items-center justify-between border-b border-line pr-2 pl-5">
              {mark}
              <DialogClose asChild>
                <Button variant="ghost" size="icon" aria-label={t.nav.closeMenu}>
                  <CloseIcon />
                </Button>
              </DialogClose>
            </div>
            <div className="min-h-0 flex-1 overflow-y-auto">
              <SideNav isAdmin={isAdmin} onNavigate={() => setMenuOpen(false)} />
            </div>
          </SheetContent>
        </Dialog>
        <Link href="/" className="min-w-0 flex-1 rounded-md">
          {mark}
        </Link>
        <NotificationBell align="end" />
        <UserSlot compact onSignOutError={setSignOutError} />
      </header>

      <main
        id="main"
        tabIndex={-1}
        className={cn(
          'focus:outline-none',
          wide
            ? 'flex h-[calc(100dvh-3.5rem)] w-full flex-col md:h-dvh'
            : fullWidth
              ? 'w-full px-4 py-6 sm:px-6'
              : 'mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 lg:px-10 lg:py-10',
        )}
      >
        {signOutError ? (
          <Alert
            tone="danger"
            testId="sign-out-error"
            className={wide ? 'm-3' : 'mb-6'}
            action={
              <Button size="sm" variant="ghost" onClick={() => setSignOutError(null)}>
                {t.common.close}
              </Button>
            }
          >
            {describeError(signOutError, t)}
          </Alert>
        ) : null}
        {children}
      </main>
    </div>
  );
}
