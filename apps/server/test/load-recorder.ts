/**
 * What a fault test's load saw: every request's outcome, when it was sent and how long it took.
 * A request that got no answer is an "error" (connection refused or reset: a crash) or a "timeout"
 * (a hang); both are failures in every fault test.
 */
export interface Sample {
  kind: string;
  server: string;
  /** Milliseconds since the recorder started, when the request was sent. */
  at: number;
  ms: number;
  status: number | "error" | "timeout";
  /** The error code of a JSON error answer. */
  code?: string;
  /** The start of an error answer's body. */
  body?: string;
}

export class LoadRecorder {
  readonly samples: Sample[] = [];
  readonly t0 = Date.now();
  private stopped = false;

  constructor(private readonly maxRequests: number) {}

  now(): number {
    return Date.now() - this.t0;
  }

  /** Whether the lanes should go on: not stopped and below the bound on requests. */
  get running(): boolean {
    return !this.stopped && this.samples.length < this.maxRequests;
  }

  stop(): void {
    this.stopped = true;
  }

  /** Sends one request and records its outcome; the response, or null when there was none. */
  async send(kind: string, server: string, request: () => Promise<Response>): Promise<Response | null> {
    const at = this.now();
    try {
      const res = await request();
      let code: string | undefined;
      let body: string | undefined;
      if (res.status >= 400) {
        body = (await res.clone().text()).slice(0, 300);
        try {
          code = (JSON.parse(body) as { error?: { code?: string }; code?: string }).error?.code;
        } catch {
          /* not JSON */
        }
      }
      this.samples.push({ kind, server, at, ms: this.now() - at, status: res.status, code, body });
      return res;
    } catch (err) {
      const timeout = (err as Error).name === "TimeoutError";
      this.samples.push({ kind, server, at, ms: this.now() - at, status: timeout ? "timeout" : "error" });
      return null;
    }
  }

  /** Counts by status (and error code), e.g. { "200": 120, "503 unavailable": 14 }. */
  summary(filter: (s: Sample) => boolean = () => true): Record<string, number> {
    const out: Record<string, number> = {};
    for (const s of this.samples.filter(filter)) {
      const k = s.code ? `${s.status} ${s.code}` : String(s.status);
      out[k] = (out[k] ?? 0) + 1;
    }
    return out;
  }
}
