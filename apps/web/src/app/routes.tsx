import type { RouteObject } from "react-router";
import { authRoutes } from "../features/auth/routes.tsx";
import { Layout, PageFallback } from "./Layout.tsx";
import { RouteError } from "./RouteError.tsx";
import { rootFilmSlugs } from "../lib/catalogue/film.ts";

/** Film pages: React Router matches paths case-insensitively, so /Kabali and /kabali both land here. */
const filmRoutes: RouteObject[] = rootFilmSlugs.map((slug) => ({
  path: slug,
  handle: { filmSlug: slug },
  lazy: async () => ({ Component: (await import("../features/films/routes/FilmPage.tsx")).FilmRoute }),
}));

/** Every page is its own chunk; the shell (header, footer) is in the entry. */
export const routes: RouteObject[] = [
  {
    path: "/",
    Component: Layout,
    ErrorBoundary: RouteError,
    HydrateFallback: PageFallback,
    children: [
      {
        index: true,
        lazy: async () => ({ Component: (await import("../features/home/routes/HomePage.tsx")).HomePage }),
      },
      {
        path: "collections",
        lazy: async () => ({
          Component: (await import("../features/collections/routes/CollectionsPage.tsx")).CollectionsPage,
        }),
      },
      ...filmRoutes,
      {
        // Films without one of the fixed routes above (e.g. new ones from the studio console).
        path: "films/:slug",
        lazy: async () => ({
          Component: (await import("../features/films/routes/FilmPage.tsx")).FilmBySlugRoute,
        }),
      },
      {
        path: "nonfungiblespb",
        lazy: async () => ({
          Component: (await import("../features/films/routes/FeaturedSongPage.tsx")).FeaturedSongPage,
        }),
      },
      {
        path: "marketplace",
        lazy: async () => ({
          Component: (await import("../features/marketplace/routes/MarketplacePage.tsx")).MarketplacePage,
        }),
      },
      {
        path: "nftdetail/:id",
        lazy: async () => ({
          Component: (await import("../features/nft/routes/NftDetailPage.tsx")).NftDetailPage,
        }),
      },
      {
        path: "confirmation/:nftId/:orderId",
        lazy: async () => ({
          Component: (await import("../features/nft/routes/ConfirmationPage.tsx")).ConfirmationPage,
        }),
      },
      {
        // The providers' return page (decision 142): the order's real state, followed live.
        path: "paymentstatus/:nftId/:orderId/*",
        lazy: async () => ({
          Component: (await import("../features/nft/routes/ConfirmationPage.tsx")).ConfirmationPage,
        }),
      },
      {
        path: "Nft_conformation/:nftId",
        lazy: async () => ({
          Component: (await import("../features/nft/routes/ConfirmationPage.tsx"))
            .LatestOrderConfirmationPage,
        }),
      },
      {
        path: "Bid_conformation/:nftId",
        lazy: async () => ({
          Component: (await import("../features/nft/routes/BidConfirmationPage.tsx")).BidConfirmationPage,
        }),
      },
      // One token on the chain: the holder's sale page (from the profile) and everyone else's buy-or-bid page.
      ...["nftshowcase/:tokenId", "nfttransfer/:tokenId", "transfer/:tokenId"].map((path) => ({
        path,
        lazy: async () => ({
          Component: (await import("../features/tokens/routes/TokenPage.tsx")).TokenPage,
        }),
      })),
      {
        // A user's public profile, the shareable one (decision 151).
        path: "u/:handle",
        lazy: async () => ({
          Component: (await import("../features/profile/ProfilePage.tsx")).PublicProfilePage,
        }),
      },
      {
        path: "blog",
        lazy: async () => ({ Component: (await import("../features/blog/routes/BlogPage.tsx")).BlogPage }),
      },
      {
        path: "blog/:slug",
        lazy: async () => ({ Component: (await import("../features/blog/routes/PostPage.tsx")).PostPage }),
      },
      {
        path: "about",
        lazy: async () => ({ Component: (await import("../features/about/routes/AboutPage.tsx")).AboutPage }),
      },
      {
        // Matches /how%20it%20works (and /how it works as typed).
        path: "how it works",
        lazy: async () => ({
          Component: (await import("../features/help/routes/HowItWorksPage.tsx")).HowItWorksPage,
        }),
      },
      {
        path: "contact",
        lazy: async () => ({
          Component: (await import("../features/contact/routes/ContactPage.tsx")).ContactPage,
        }),
      },
      {
        path: "Termscondition",
        lazy: async () => ({ Component: (await import("../features/legal/routes/TermsPage.tsx")).TermsPage }),
      },
      {
        path: "Privacypolicy",
        lazy: async () => ({
          Component: (await import("../features/legal/routes/PrivacyPage.tsx")).PrivacyPage,
        }),
      },
      ...authRoutes,
      // Sign-in required; wagmi and viem load with this route's chunk, never in the first load.
      { path: "wallet", lazy: () => import("../features/wallet/WalletPage.tsx") },
      // The studio console (administrators and studio accounts; 403 page for others).
      { path: "admin", lazy: () => import("../features/admin/AdminPage.tsx") },
      { path: "admin/:section", lazy: () => import("../features/admin/AdminPage.tsx") },
      {
        path: "*",
        lazy: async () => ({
          Component: (await import("../features/not-found/routes/NotFoundPage.tsx")).NotFoundPage,
        }),
      },
    ],
  },
];
