import type { ContactRequest } from "@diginoor/api/catalogue";
import { apiFetch } from "../../../lib/api.ts";

/** POST /api/v1/contact */
export function sendContactMessage(body: ContactRequest): Promise<{ ok: true }> {
  return apiFetch<{ ok: true }>("/api/v1/contact", { method: "POST", body });
}
