import type { catalogueEndpoints, NewsletterRequest } from "@diginoor/api/catalogue";
import { callApi } from "../../../lib/api.ts";

/** POST /api/v1/newsletter */
export function subscribeToNewsletter(body: NewsletterRequest): Promise<{ ok: true }> {
  return callApi<typeof catalogueEndpoints.subscribeNewsletter>("POST /api/v1/newsletter", { body });
}
