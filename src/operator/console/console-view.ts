// Server-side rendering with mustache: every {{value}} is HTML-escaped, and no template uses the
// unescaped forms, so nothing a rule, an event or a contact carries can become markup. The page
// is a partial of the layout: the view object is shared, no HTML is ever built by hand.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Mustache from 'mustache';
import { allows, type Role } from '../roles/roles';

export const PAGES = [
  'login',
  'overview',
  'budget',
  'rules',
  'runs',
  'run',
  'event',
  'events',
  'bulk-run',
  'contact-search',
  'timeline',
  'failures',
  'confirm',
  'manual-run',
  'rule',
  'not-found',
  'deploy',
  'deploy-diff',
  'rule-at-commit',
  'signed-in',
] as const;
export type Page = (typeof PAGES)[number];

const NAV = [
  { href: '/console', label: 'Overview', page: 'overview' },
  { href: '/console/budget', label: 'Budget', page: 'budget' },
  { href: '/console/rules', label: 'Rules', page: 'rules' },
  { href: '/console/runs', label: 'Runs', page: 'runs' },
  { href: '/console/events', label: 'Events', page: 'events' },
  { href: '/console/contacts', label: 'Contacts', page: 'contacts' },
  { href: '/console/failures', label: 'Failures', page: 'failures' },
  { href: '/console/deploy', label: 'Deploy', page: 'deploy' },
];

export interface PageContext {
  title: string;
  /** Which nav entry is highlighted. */
  section?: string;
  /** Present once logged in: shows the navigation and the logout form. */
  csrf?: string;
  flash?: string;
  scripts?: string[];
  uplot?: boolean;
  /** Who is logged in: their name and role in the header, and which controls the pages show. */
  user?: { name: string; role: Role };
}

/** The controls a role may see (the server refuses the requests anyway: access.guard.ts). */
export function controlsFor(role: Role | undefined) {
  return { operate: role !== undefined && allows(role, 'operator'), admin: role === 'admin' };
}

const dir = join(__dirname, 'templates');
const read = (name: string) => readFileSync(join(dir, `${name}.mustache`), 'utf8');

export class ConsoleView {
  private readonly layout = read('layout');
  private readonly pages = new Map<Page, string>(PAGES.map((p) => [p, read(p)]));

  render(page: Page, view: Record<string, unknown>, ctx: PageContext): string {
    const nav = NAV.map((n) => ({ ...n, active: n.page === (ctx.section ?? page) }));
    return Mustache.render(
      this.layout,
      { ...view, ...ctx, session: ctx.csrf !== undefined, nav, can: controlsFor(ctx.user?.role) },
      { body: this.pages.get(page)! },
    );
  }
}
