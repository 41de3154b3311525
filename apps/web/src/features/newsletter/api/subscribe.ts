import type { NewsletterRequest } from "@diginoor/api/catalogue";
import { apiFetch } from "../../../lib/api.ts";

/** POST /api/v1/newsletter */
export function subscribeToNewsletter(body: NewsletterRequest): Promise<{ ok: true }> {
  return apiFetch<{ ok: true }>("/api/v1/newsletter", { method: "POST", body });
}
