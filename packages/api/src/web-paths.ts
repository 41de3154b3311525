/**
 * Every page of the web app, as React Router path patterns (`:name` matches one segment, a final `*`
 * any rest, or none). The
 * server answers other paths with the app's 404 page and HTTP status 404; a unit test in the web
 * app keeps its route table and this list the same.
 */
export const webPagePaths = [
  "/",
  "/collections",
  "/kabali",
  "/sivaji",
  "/chandramukhi",
  "/pasumainayaganvivek",
  "/nonfungiblespb",
  "/films/:slug",
  "/marketplace",
  "/nftdetail/:id",
  "/confirmation/:nftId/:orderId",
  // Where Stripe and Cashfree send the payer back (…/return, …/cancelled), and the old site's page.
  "/paymentstatus/:nftId/:orderId/*",
  "/Nft_conformation/:nftId",
  "/Bid_conformation/:nftId",
  "/nftshowcase/:tokenId",
  "/nfttransfer/:tokenId",
  "/transfer/:tokenId",
  "/lottery",
  "/lottery/:id",
  "/lottery/:id/verify",
  "/lottery_purchased/:id",
  "/lottery_confirmation/:id",
  "/lottery_pop",
  "/blog",
  "/blog/:slug",
  "/about",
  "/how it works",
  "/contact",
  "/Termscondition",
  "/Privacypolicy",
  "/wallet",
  // A mailed recovery link of a passkey wallet (decision 160).
  "/wallet/recover/:token",
  "/login",
  "/signup",
  "/resetpass",
  "/verify-email",
  // A Google-only account confirms its deletion from the mailed link (data rights, decision 170).
  "/delete-account",
  "/unsubscribe",
  "/profile",
  "/u/:handle",
  "/profile/edit_profile",
  "/edit_profile",
  "/admin",
  "/admin/:section",
] as const;

const matchers = webPagePaths.map((p) => {
  const splat = p.endsWith("/*");
  const pattern = (splat ? p.slice(0, -2) : p)
    .split("/")
    .map((seg) => (seg.startsWith(":") ? "[^/]+" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${pattern}${splat ? "(?:/.*)?" : "/?"}$`, "i");
});

/** True when `pathname` (raw or percent-encoded, any letter case, optional trailing slash) is a page. */
export function isWebPagePath(pathname: string): boolean {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  return matchers.some((m) => m.test(path));
}
