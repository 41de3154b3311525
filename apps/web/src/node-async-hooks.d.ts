// The one Node API the server renderer (entry-server.tsx) uses; the web app's types are the browser's.
declare module "node:async_hooks" {
  export class AsyncLocalStorage<T> {
    run<R>(store: T, callback: () => R): R;
    getStore(): T | undefined;
  }
}
