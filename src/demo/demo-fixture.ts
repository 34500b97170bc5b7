// The CRM `npm start` runs: the sandbox's demo fixture plus the tags, stages and members the
// recipes (recipes/, docs/RECIPES.md) name, so a recipe copied into rules/ passes `crm-rules
// validate` against a snapshot of the demo and acts at run time. Only the demo gets these; the
// tests' sandboxes keep the plain fixture their counts rely on.
import { readFixture } from '../sandbox/domain/fixture-loader';
import type { SandboxFixture } from '../sandbox/start-sandbox';

const id = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${String(900 + n).padStart(12, '0')}`;

/** The ids of what the recipes name, for tests that act on them. */
export const RECIPE_NAMES = {
  tags: {
    newsletter: id('7a000000', 1),
    gold: id('7a000000', 2),
    refundRequested: id('7a000000', 3),
    recentAdLead: id('7a000000', 4),
    slaBreach: id('7a000000', 5),
  },
  stages: { refundRequested: id('5a000000', 1), enterprise: id('5a000000', 2), trial: id('5a000000', 3) },
  members: { billing: id('a0000000', 1), teamLead: id('a0000000', 2), vipDesk: id('a0000000', 3) },
};

export function demoFixtureWithRecipeNames(): SandboxFixture {
  const fixture = structuredClone(readFixture(undefined));
  const org = fixture.organizations[0];
  const { tags, stages, members } = RECIPE_NAMES;
  org.tags = [
    ...(org.tags ?? []),
    { id: tags.newsletter, name: 'newsletter', color: '#795548' },
    { id: tags.gold, name: 'gold', color: '#ffd700' },
    { id: tags.refundRequested, name: 'refund-requested', color: '#f44336' },
    { id: tags.recentAdLead, name: 'recent-ad-lead', color: '#9c27b0' },
    { id: tags.slaBreach, name: 'sla-breach', color: '#ff5722' },
  ];
  org.stages = [
    ...(org.stages ?? []),
    { id: stages.refundRequested, name: 'Refund requested', color: '#f44336', isInProgress: true },
    { id: stages.enterprise, name: 'Enterprise', color: '#673ab7', isInProgress: true },
    { id: stages.trial, name: 'Trial', color: '#03a9f4', isInProgress: true },
  ];
  org.members = [
    ...(org.members ?? []),
    { id: members.billing, name: 'Billing Team', email: 'billing@demo.test', role: 'agent' },
    { id: members.teamLead, name: 'Team Lead', email: 'lead@demo.test', role: 'agent' },
    { id: members.vipDesk, name: 'VIP Desk', email: 'vip-desk@demo.test', role: 'agent' },
  ];
  return fixture;
}
