// The console's server-rendered pages: every value escaped, the session-only navigation.
import { ConsoleView } from './console-view';

describe('console pages', () => {
  const view = new ConsoleView();

  it('escapes every value it shows', () => {
    // A different hostile value per field, so each one is seen escaped (a field left out or shown
    // raw fails), not only the first.
    const fields = ['contactId', 'summary', 'at', 'kind', 'title', 'detail', 'pageTitle'] as const;
    const hostileIn = (field: string) => `<script>alert("${field}")</script><img src=x onerror=alert(1)>`;
    const html = view.render(
      'timeline',
      {
        contactId: hostileIn('contactId'),
        summary: hostileIn('summary'),
        steps: [
          {
            at: hostileIn('at'),
            kind: hostileIn('kind'),
            tone: 'ok',
            title: hostileIn('title'),
            detail: hostileIn('detail'),
            href: `/console/runs/1`,
          },
        ],
      },
      { title: hostileIn('pageTitle'), csrf: 'token' },
    );
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    for (const field of fields)
      expect(html).toContain(`&lt;script&gt;alert(&quot;${field}&quot;)&lt;&#x2F;script&gt;`);
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
