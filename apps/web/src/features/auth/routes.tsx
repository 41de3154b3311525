import type { RouteObject } from "react-router";

// Every accounts page is a lazy route module, so none of it is in the home page's first load.
export const authRoutes: RouteObject[] = [
  { path: "login", lazy: () => import("./LoginPage.tsx") },
  { path: "signup", lazy: () => import("./SignupPage.tsx") },
  { path: "resetpass", lazy: () => import("./ResetPasswordPage.tsx") },
  { path: "verify-email", lazy: () => import("./VerifyEmailPage.tsx") },
  // A notification email's unsubscribe link (no sign-in: the token authorises).
  { path: "unsubscribe", lazy: () => import("./UnsubscribePage.tsx") },
  // The profile pages are listed here because the router spreads only authRoutes for accounts.
  { path: "profile", lazy: () => import("../profile/ProfilePage.tsx") },
  { path: "profile/edit_profile", lazy: () => import("../profile/EditProfilePage.tsx") },
  { path: "edit_profile", lazy: () => import("../profile/EditProfilePage.tsx") },
];
