import type { ContactRequest, catalogueEndpoints } from "@diginoor/api/catalogue";
import { callApi } from "../../../lib/api.ts";

/** POST /api/v1/contact */
export function sendContactMessage(body: ContactRequest): Promise<{ ok: true }> {
  return callApi<typeof catalogueEndpoints.sendContactMessage>("POST /api/v1/contact", { body });
}
