/** A minimal Server-Sent Events reader for tests: fetch's streamed body, collected as text. */
export interface EventStream {
  status: number;
  contentType: string | null;
  /** Everything received so far. */
  text(): string;
  /** Resolves when the text received satisfies `test` (rejects after `timeoutMs`). */
  waitFor(test: (text: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Resolves when the server has ended the stream (rejects after `timeoutMs`). */
  ended(timeoutMs?: number): Promise<void>;
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
  let finished = false;
  const endWaiters = new Set<() => void>();
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
        // The server ended the stream (an abort by this client throws instead).
        finished = true;
        for (const w of endWaiters) w();
      } catch {
        // aborted
      }
    })();
  } else finished = true;
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
    ended(timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        if (finished) return resolve();
        const timer = setTimeout(() => {
          endWaiters.delete(onEnd);
          reject(new Error(`event stream: not ended by the server within ${timeoutMs} ms`));
        }, timeoutMs);
        const onEnd = () => {
          clearTimeout(timer);
          resolve();
        };
        endWaiters.add(onEnd);
      });
    },
    close: () => abort.abort(),
  };
}
