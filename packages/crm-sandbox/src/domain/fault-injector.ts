// Faults armed through POST /_sandbox/faults. Each fault applies to the next `count`
// matching API requests (error500, refuse422, latency, rate429, lost-answer, truncated-answer,
// cut-connection) or webhook delivery attempts
// (drop-delivery), then disarms itself. Faults are consumed in the order they were armed.

export const FAULT_KINDS = [
  'error500',
  /** A 422 refusal with `code` (default outside_messaging_window): the CRM said no, nothing was done. */
  'refuse422',
  'latency',
  'rate429',
  'lost-answer',
  'truncated-answer',
  'cut-connection',
  'drop-delivery',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultSpec {
  kind: FaultKind;
  count: number;
  latencyMs?: number;
  retryAfterSec?: number;
  /** refuse422: the error code of the refusal. */
  code?: string;
  /**
   * API faults: "<METHOD> <route pattern>" (exact) or "<route pattern>" (any method).
   * drop-delivery: an event kind such as "contact.created". Absent: everything matches.
   */
  route?: string;
}

export interface ArmedFault extends FaultSpec {
  id: number;
  remaining: number;
}

export class FaultInjector {
  private faults: ArmedFault[] = [];
  private nextId = 1;

  arm(spec: FaultSpec): ArmedFault {
    const fault: ArmedFault = { ...spec, id: this.nextId++, remaining: spec.count };
    this.faults.push(fault);
    return fault;
  }

  list(): ArmedFault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  clear(): void {
    this.faults = [];
  }

  /** Consumes one use of the first armed fault of `kind` matching the request, if any. */
  takeForRequest(
    kind: Exclude<FaultKind, 'drop-delivery'>,
    method: string,
    pattern: string,
  ): ArmedFault | undefined {
    return this.take(kind, (route) => routeMatches(route, method, pattern));
  }

  takeForDelivery(eventType: string): ArmedFault | undefined {
    return this.take('drop-delivery', (route) => route === eventType);
  }

  private take(kind: FaultKind, matches: (route: string) => boolean): ArmedFault | undefined {
    const fault = this.faults.find((f) => f.kind === kind && (f.route === undefined || matches(f.route)));
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return { ...fault };
  }
}

function routeMatches(route: string, method: string, pattern: string): boolean {
  const space = route.indexOf(' ');
  if (space < 0) return route === pattern;
  return (
    route.slice(0, space).toUpperCase() === method.toUpperCase() && route.slice(space + 1).trim() === pattern
  );
}
