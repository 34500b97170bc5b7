// The engine's log lines kept in memory (a pino destination), for tests that look for what must
// never be logged: session ids, CSRF values, tokens.
import type { DestinationStream } from 'pino';

export class LogCapture implements DestinationStream {
  private readonly lines: string[] = [];

  write(line: string): void {
    this.lines.push(line);
  }

  text(): string {
    return this.lines.join('');
  }

  /** Every value of `secrets` found anywhere in the captured lines. */
  leaked(secrets: Iterable<string>): string[] {
    const text = this.text();
    return [...new Set(secrets)].filter((s) => s.length > 0 && text.includes(s));
  }
}

/** Harness options that send every log line of an engine (pino's and Nest's) to `capture`. */
export function capturedLogging(capture: LogCapture, env: Record<string, string> = {}, level = 'debug') {
  return { quiet: false, logDestination: capture, env: { LOG_LEVEL: level, ...env } };
}
