import { ConsoleView } from './console-view';

describe('console pages', () => {
  const view = new ConsoleView();
  const hostile = `<script>alert("x")</script><img src=x onerror=alert(1)>`;

  it('escapes every value it shows', () => {
    const html = view.render(
      'timeline',
      {
        contactId: hostile,
        summary: hostile,
        steps: [
          {
            at: hostile,
            kind: hostile,
            tone: 'ok',
            title: hostile,
            detail: hostile,
            href: `/console/runs/1`,
          },
        ],
      },
      { title: hostile, csrf: 'token' },
    );
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;&#x2F;script&gt;');
  });

  it('shows the navigation and a logout form carrying the CSRF token only to a session', () => {
    const inside = view.render(
      'overview',
      { runs: [], actions: [], queues: [] },
      { title: 'Overview', csrf: 'tok123' },
    );
    expect(inside).toContain('action="/console/logout"');
    expect(inside).toContain('value="tok123"');
    expect(inside).toMatch(/class="active" aria-current="page">Overview/);
    const outside = view.render('login', {}, { title: 'Log in' });
    expect(outside).not.toContain('/console/logout');
    expect(outside).toContain('name="token"');
  });
});
