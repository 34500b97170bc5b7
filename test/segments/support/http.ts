// A small HTTP helper for segment tests that do not boot the engine (so they do not load the
// engine's module graph). Polling: test/support/polling.ts.

export async function httpJson<T = unknown>(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(url, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers ?? {}) },
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}
