// The chain module's public surface for other modules: the runtime (clients, deployment, hot keys).
export type { ChainRuntime } from "./runtime.ts";
