/** The checked-in OpenAPI document, and the configuration its served twin is generated under. */
export const OPENAPI_FILE = new URL("../../../docs/openapi.json", import.meta.url);

/** The routes listed depend on configuration (the dev mailbox): one fixed configuration for both. */
export const OPENAPI_CONFIG = {
  NODE_ENV: "test",
  PUBLIC_URL: "http://localhost:3000",
  CHAIN_DISABLED: "1",
  WORKERS: "off",
  SESSION_SECRET: "openapi-openapi-openapi-openapi-1234",
} as const;

export function formatOpenApi(doc: unknown): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}
