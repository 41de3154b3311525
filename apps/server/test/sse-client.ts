/** A minimal Server-Sent Events reader for tests: fetch's streamed body, collected as text. */
export interface EventStream {
  status: number;
  contentType: string | null;
  /** Everything received so far. */
  text(): string;
  /** Resolves when the text received satisfies `test` (rejects after `timeoutMs`). */
  waitFor(test: (text: string) => boolean, timeoutMs?: number): Promise<string>;
  close(): void;
}

export async function openEventStream(
  url: string,
  headers: Record<string, string> = {},
): Promise<EventStream> {
  const abort = new AbortController();
  const res = await fetch(url, {
    headers: { accept: "text/event-stream", ...headers },
    signal: abort.signal,
  });
  let received = "";
  const waiters = new Set<() => void>();
  if (res.body) {
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          received += value;
          for (const w of waiters) w();
        }
      } catch {
        // aborted
      }
    })();
  }
  return {
    status: res.status,
    contentType: res.headers.get("content-type"),
    text: () => received,
    waitFor(test, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!test(received)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(received);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`event stream: not seen within ${timeoutMs} ms; got ${JSON.stringify(received)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => abort.abort(),
  };
}
