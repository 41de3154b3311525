import { RequireAccount } from "../../lib/account.tsx";
import { MyProfile, ProfileSkeleton, PublicProfile, profileFrame } from "../../features/profile/Profile.tsx";

/** /profile: the signed-in user's own profile; visitors sign in first. */
export function Component() {
  return (
    <RequireAccount
      errorTitle="We couldn't load your profile"
      frame={profileFrame}
      loading={<ProfileSkeleton />}
    >
      {(user) => <MyProfile user={user} />}
    </RequireAccount>
  );
}

/** /u/:handle: anyone's public profile (decision 151). */
export const PublicProfilePage = PublicProfile;
