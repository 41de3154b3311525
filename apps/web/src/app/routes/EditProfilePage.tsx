import { useEffect } from "react";
import { Link } from "react-router";
import { EditProfile } from "../../features/profile/EditProfile.tsx";
import { TaxSection } from "../../features/tax/TaxSection.tsx";
import { RequireAccount } from "../../lib/account.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";

/** /profile/edit_profile (and /edit_profile): the signed-in user's settings; visitors sign in first. */
export function Component() {
  useEffect(() => {
    document.title = "Edit profile · Diginoor";
  }, []);

  return (
    <div className="profile-page">
      <div className="profile-shell profile-shell--narrow">
        <p className="profile-back">
          <Link to="/profile" className="auth-link auth-link--quiet">
            ← Back to profile
          </Link>
        </p>
        <h1 className="profile-edit__title">Edit profile</h1>
        <RequireAccount
          errorTitle="We couldn't load your profile"
          loading={
            <div className="profile-card" aria-busy="true">
              <Skeleton height="2.5rem" />
              <Skeleton height="2.5rem" />
              <Skeleton height="2.5rem" />
            </div>
          }
        >
          {(user, account) => (
            <>
              <EditProfile user={user} account={account} />
              <TaxSection />
            </>
          )}
        </RequireAccount>
      </div>
    </div>
  );
}
