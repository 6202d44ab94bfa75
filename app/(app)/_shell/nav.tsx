'use client';

/** The side navigation: sections by group, then settings, then administration for admins. */
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { ComponentType } from 'react';
import { useI18n } from '@/app/i18n/client';
import type { Dictionary } from '@/app/i18n';
import { cn } from '@/app/ui/cn';
import { useSupportUnreadCount } from '../support/_lib/api';
import {
  ActivityIcon,
  ApprovalIcon,
  BanIcon,
  BellIcon,
  ChartIcon,
  ChatIcon,
  DashboardIcon,
  InboxIcon,
  KeyIcon,
  LifeBuoyIcon,
  ListIcon,
  MailIcon,
  MailOpenIcon,
  PencilIcon,
  PlugIcon,
  ReviewIcon,
  ShieldIcon,
  TableIcon,
  TemplateIcon,
  UserIcon,
  UsersIcon,
  WorkflowIcon,
} from '@/app/ui/icons';

type Icon = ComponentType<{ size?: number; className?: string }>;

interface NavItem {
  href: string;
  label: (t: Dictionary) => string;
  icon: Icon;
  /** A count shown after the label (absent at 0). */
  badge?: 'supportUnread';
}

interface NavGroup {
  title: ((t: Dictionary) => string) | null;
  items: NavItem[];
  adminOnly?: boolean;
}

const section = (key: keyof Dictionary['sections'], href: string, icon: Icon): NavItem => ({
  href,
  label: (t) => t.sections[key].title,
  icon,
});

const groups: NavGroup[] = [
  {
    title: null,
    items: [
      section('dashboard', '/', DashboardIcon),
      section('notifications', '/notifications', BellIcon),
      { ...section('support', '/support', LifeBuoyIcon), badge: 'supportUnread' },
    ],
  },
  {
    title: (t) => t.nav.groups.automation,
    items: [
      section('workflows', '/workflows', WorkflowIcon),
      section('executions', '/executions', ActivityIcon),
      section('tables', '/tables', TableIcon),
      section('templates', '/templates', TemplateIcon),
      section('assistant', '/assistant', ChatIcon),
    ],
  },
  {
    title: (t) => t.nav.groups.mail,
    items: [
      section('messages', '/messages', MailIcon),
      section('journal', '/journal', MailOpenIcon),
      section('review', '/review', ReviewIcon),
      section('approvals', '/approvals', ApprovalIcon),
      section('contacts', '/contacts', UsersIcon),
      section('analyzer', '/analyzer', ChartIcon),
    ],
  },
  {
    title: (t) => t.nav.groups.settings,
    items: [
      section('mailboxes', '/settings/mailboxes', InboxIcon),
      { href: '/settings/connections', label: (t) => t.nav.connections, icon: PlugIcon },
      { href: '/settings/exclusions', label: (t) => t.nav.exclusions, icon: BanIcon },
      { href: '/settings/signatures', label: (t) => t.contacts.signatures.nav, icon: PencilIcon },
      { href: '/settings/api-keys', label: (t) => t.nav.apiKeys, icon: KeyIcon },
    ],
  },
  {
    title: (t) => t.nav.groups.admin,
    adminOnly: true,
    items: [
      { href: '/admin/members', label: (t) => t.nav.members, icon: UserIcon },
      { href: '/admin/oauth-apps', label: (t) => t.nav.oauthApps, icon: ShieldIcon },
      { href: '/admin/ai', label: (t) => t.aiAdmin.nav, icon: ChatIcon },
      { href: '/admin/writing-defaults', label: (t) => t.contacts.defaults.organisation.nav, icon: UsersIcon },
      { href: '/admin/audit', label: (t) => t.nav.audit, icon: ListIcon },
    ],
  },
];

function isActive(pathname: string, href: string): boolean {
  return href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);
}

/** The reader's unread support threads after the "Support" label (`nav-support-unread`), read out with the label. */
function SupportUnreadBadge({ count }: { count: number }) {
  const { t } = useI18n();
  if (count <= 0) return null;
  return (
    <>
      <span
        aria-hidden="true"
        data-testid="nav-support-unread"
        className="ml-auto flex h-4.5 min-w-4.5 shrink-0 items-center justify-center rounded-full bg-brand px-1.5 text-[10px] leading-none font-semibold text-on-brand"
      >
        {count > 99 ? '99+' : count}
      </span>
      <span className="sr-only">, {t.support.navUnread(count)}</span>
    </>
  );
}

export function SideNav({ isAdmin, onNavigate }: { isAdmin: boolean; onNavigate?: () => void }) {
  const { t } = useI18n();
  const pathname = usePathname();
  const supportUnread = useSupportUnreadCount();
  return (
    <nav aria-label={t.nav.label} className="flex flex-col gap-5 px-3 py-4">
      {groups
        .filter((group) => !group.adminOnly || isAdmin)
        .map((group, index) => {
          const headingId = `nav-group-${index}`;
          return (
            <div key={index} role="group" aria-labelledby={group.title ? headingId : undefined}>
              {group.title ? (
                <h2 id={headingId} className="mb-1 px-2.5 text-[11px] font-semibold tracking-wider text-muted/80 uppercase">
                  {group.title(t)}
                </h2>
              ) : null}
              <ul className="space-y-0.5">
                {group.items.map((item) => {
                  const active = isActive(pathname, item.href);
                  const Icon = item.icon;
                  return (
                    <li key={item.href}>
                      <Link
                        href={item.href}
                        onClick={onNavigate}
                        aria-current={active ? 'page' : undefined}
                        className={cn(
                          'flex h-8 items-center gap-2.5 rounded-md px-2.5 text-sm transition-colors',
                          active ? 'bg-brand/10 font-medium text-brand-fg' : 'text-muted hover:bg-subtle hover:text-fg',
                        )}
                      >
                        <Icon className="shrink-0" />
                        <span className="truncate">{item.label(t)}</span>
                        {item.badge === 'supportUnread' ? <SupportUnreadBadge count={supportUnread} /> : null}
                      </Link>
                    </li>
                  );
                })}
              </ul>
            </div>
          );
        })}
    </nav>
  );
}
