import type { RouteObject } from "react-router";
import { Layout, PageFallback } from "./Layout.tsx";
import { RouteError } from "./RouteError.tsx";
import { rootFilmSlugs } from "../lib/catalogue/film.ts";

/** Film pages: React Router matches paths case-insensitively, so /Kabali and /kabali both land here. */
const filmRoutes: RouteObject[] = rootFilmSlugs.map((slug) => ({
  path: slug,
  handle: { filmSlug: slug, ssr: "src/app/routes/FilmPage.tsx" },
  lazy: async () => ({ Component: (await import("./routes/FilmPage.tsx")).FilmRoute }),
}));

/**
 * Marks a page that the server renders to HTML (decision 033), naming its module as Vite's manifest
 * does, so the server links its CSS and preloads its chunk; routes.test.ts checks it is the module
 * the route imports.
 */
function ssr(module: string) {
  return { ssr: module };
}

/**
 * Every page is its own chunk; the shell (header, footer) is in the entry. A page is a route module
 * under app/routes/ that composes features (features/*) and the shared lib/ and ui/; pages that need a
 * signed-in user wrap themselves in lib/account.tsx's RequireAccount / RequireAdmin. (Home, the
 * marketplace and the NFT page still live in their features, to be moved the same way.)
 */
export const routes: RouteObject[] = [
  {
    path: "/",
    Component: Layout,
    ErrorBoundary: RouteError,
    HydrateFallback: PageFallback,
    children: [
      {
        index: true,
        handle: ssr("src/features/home/routes/HomePage.tsx"),
        lazy: async () => ({ Component: (await import("../features/home/routes/HomePage.tsx")).HomePage }),
      },
      {
        path: "collections",
        handle: ssr("src/app/routes/CollectionsPage.tsx"),
        lazy: async () => ({
          Component: (await import("./routes/CollectionsPage.tsx")).CollectionsPage,
        }),
      },
      ...filmRoutes,
      {
        // Films without one of the fixed routes above (e.g. new ones from the studio console).
        path: "films/:slug",
        handle: ssr("src/app/routes/FilmPage.tsx"),
        lazy: async () => ({
          Component: (await import("./routes/FilmPage.tsx")).FilmBySlugRoute,
        }),
      },
      {
        path: "nonfungiblespb",
        handle: ssr("src/app/routes/FeaturedSongPage.tsx"),
        lazy: async () => ({
          Component: (await import("./routes/FeaturedSongPage.tsx")).FeaturedSongPage,
        }),
      },
      {
        path: "marketplace",
        handle: ssr("src/features/marketplace/routes/MarketplacePage.tsx"),
        lazy: async () => ({
          Component: (await import("../features/marketplace/routes/MarketplacePage.tsx")).MarketplacePage,
        }),
      },
      {
        path: "nftdetail/:id",
        handle: ssr("src/features/nft/routes/NftDetailPage.tsx"),
        lazy: async () => ({
          Component: (await import("../features/nft/routes/NftDetailPage.tsx")).NftDetailPage,
        }),
      },
      {
        path: "confirmation/:nftId/:orderId",
        lazy: async () => ({
          Component: (await import("./routes/ConfirmationPage.tsx")).ConfirmationPage,
        }),
      },
      {
        // The providers' return page (decision 142): the order's real state, followed live.
        path: "paymentstatus/:nftId/:orderId/*",
        lazy: async () => ({
          Component: (await import("./routes/ConfirmationPage.tsx")).ConfirmationPage,
        }),
      },
      {
        path: "Nft_conformation/:nftId",
        lazy: async () => ({
          Component: (await import("./routes/ConfirmationPage.tsx")).LatestOrderConfirmationPage,
        }),
      },
      {
        path: "Bid_conformation/:nftId",
        lazy: async () => ({
          Component: (await import("./routes/BidConfirmationPage.tsx")).BidConfirmationPage,
        }),
      },
      // One token on the chain: the holder's sale page (from the profile) and everyone else's buy-or-bid page.
      ...["nftshowcase/:tokenId", "nfttransfer/:tokenId", "transfer/:tokenId"].map((path) => ({
        path,
        lazy: async () => ({
          Component: (await import("./routes/TokenPage.tsx")).TokenPage,
        }),
      })),
      {
        // A user's public profile, the shareable one (decision 151).
        path: "u/:handle",
        lazy: async () => ({
          Component: (await import("./routes/ProfilePage.tsx")).PublicProfilePage,
        }),
      },
      {
        path: "lottery",
        lazy: async () => ({ Component: (await import("./routes/LotteryPage.tsx")).LotteryListPage }),
      },
      {
        path: "lottery/:id",
        lazy: async () => ({ Component: (await import("./routes/LotteryPage.tsx")).LotteryDetailPage }),
      },
      {
        path: "lottery/:id/verify",
        lazy: async () => ({ Component: (await import("./routes/LotteryPage.tsx")).LotteryVerifyPage }),
      },
      ...["lottery_purchased/:id", "lottery_confirmation/:id"].map((path) => ({
        path,
        lazy: async () => ({
          Component: (await import("./routes/LotteryPage.tsx")).LotteryConfirmationPage,
        }),
      })),
      {
        path: "lottery_pop",
        lazy: async () => ({ Component: (await import("./routes/LotteryPage.tsx")).LotteryPopRedirect }),
      },
      {
        path: "blog",
        handle: ssr("src/app/routes/BlogPage.tsx"),
        lazy: async () => ({ Component: (await import("./routes/BlogPage.tsx")).BlogPage }),
      },
      {
        path: "blog/:slug",
        handle: ssr("src/app/routes/PostPage.tsx"),
        lazy: async () => ({ Component: (await import("./routes/PostPage.tsx")).PostPage }),
      },
      {
        path: "about",
        handle: ssr("src/app/routes/AboutPage.tsx"),
        lazy: async () => ({ Component: (await import("./routes/AboutPage.tsx")).AboutPage }),
      },
      {
        // Matches /how%20it%20works (and /how it works as typed).
        path: "how it works",
        handle: ssr("src/app/routes/HowItWorksPage.tsx"),
        lazy: async () => ({
          Component: (await import("./routes/HowItWorksPage.tsx")).HowItWorksPage,
        }),
      },
      {
        path: "contact",
        lazy: async () => ({
          Component: (await import("./routes/ContactPage.tsx")).ContactPage,
        }),
      },
      {
        path: "Termscondition",
        handle: ssr("src/app/routes/TermsPage.tsx"),
        lazy: async () => ({ Component: (await import("./routes/TermsPage.tsx")).TermsPage }),
      },
      {
        path: "Privacypolicy",
        handle: ssr("src/app/routes/PrivacyPage.tsx"),
        lazy: async () => ({
          Component: (await import("./routes/PrivacyPage.tsx")).PrivacyPage,
        }),
      },
      // Every accounts page is a lazy route module, so none of it is in the home page's first load.
      { path: "login", lazy: () => import("./routes/LoginPage.tsx") },
      { path: "signup", lazy: () => import("./routes/SignupPage.tsx") },
      { path: "resetpass", lazy: () => import("./routes/ResetPasswordPage.tsx") },
      { path: "verify-email", lazy: () => import("./routes/VerifyEmailPage.tsx") },
      { path: "delete-account", lazy: () => import("./routes/DeleteAccountPage.tsx") },
      // A notification email's unsubscribe link (no sign-in: the token authorises).
      { path: "unsubscribe", lazy: () => import("./routes/UnsubscribePage.tsx") },
      { path: "profile", lazy: () => import("./routes/ProfilePage.tsx") },
      { path: "profile/edit_profile", lazy: () => import("./routes/EditProfilePage.tsx") },
      { path: "edit_profile", lazy: () => import("./routes/EditProfilePage.tsx") },
      // Sign-in required; wagmi and viem load with this route's chunk, never in the first load.
      { path: "wallet", lazy: () => import("./routes/WalletPage.tsx") },
      // A mailed recovery link, opened on the device of the new passkey (decision 160).
      { path: "wallet/recover/:token", lazy: () => import("./routes/WalletRecoverPage.tsx") },
      // The studio console (administrators and studio accounts; 403 page for others).
      { path: "admin", lazy: () => import("./routes/AdminPage.tsx") },
      { path: "admin/:section", lazy: () => import("./routes/AdminPage.tsx") },
      {
        path: "*",
        lazy: async () => ({
          Component: (await import("./routes/NotFoundPage.tsx")).NotFoundPage,
        }),
      },
    ],
  },
];
