// The response headers of every page an operator's browser opens: the console and Bull Board.
// Pure. Neither may be framed (clickjacking of a retry or a pause), cached or sniffed.
// Bull Board's page needs inline styles (its loading screen) and a <base href>; its scripts are
// files of its own. Its Google Fonts link is refused like anything else reaching outside: the
// board falls back to the browser's fonts.

export const CONSOLE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; form-action 'self'; base-uri 'none'";

export const QUEUE_BOARD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'self'";

export function securityHeaders(contentSecurityPolicy: string): Record<string, string> {
  return {
    'Cache-Control': 'no-store',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'same-origin',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': contentSecurityPolicy,
  };
}
