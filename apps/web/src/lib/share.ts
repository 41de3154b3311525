/**
 * Shares a page with the system share sheet when there is one, otherwise copies the link.
 * Resolves to what happened so the caller can say so.
 */
export async function shareLink(input: {
  title: string;
  url: string;
}): Promise<"shared" | "copied" | "cancelled" | "failed"> {
  const url = new URL(input.url, window.location.origin).toString();
  if (typeof navigator.share === "function") {
    try {
      await navigator.share({ title: input.title, url });
      return "shared";
    } catch (err) {
      if (err instanceof DOMException && err.name === "AbortError") return "cancelled";
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    return "copied";
  } catch {
    return "failed";
  }
}
