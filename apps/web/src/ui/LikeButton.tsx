import { useLocation, useNavigate } from "react-router";
import { useNftLikes, useToggleLike } from "../lib/likes.ts";
import { useCurrentUser } from "../lib/session.ts";
import { HeartIcon } from "./icons.tsx";
import { useToast } from "./Toast.tsx";

/** Like / unlike an NFT with its count (stored on the server); visitors are sent to sign in. */
export function LikeButton({
  nftId,
  title,
  className,
  withLabel = false,
}: {
  nftId: string;
  title: string;
  className: string;
  /** Show the word (Like / Liked) and name the button by it alone (the detail page). */
  withLabel?: boolean;
}) {
  const navigate = useNavigate();
  const location = useLocation();
  const toast = useToast();
  const { user } = useCurrentUser();
  const likes = useNftLikes(nftId);
  const toggle = useToggleLike(nftId);
  const liked = !!user && likes.data?.liked === true;
  const count = likes.data?.count;

  function onClick() {
    if (!user) {
      navigate(`/login?next=${encodeURIComponent(location.pathname + location.search)}`);
      return;
    }
    toggle.mutate(!liked, { onError: () => toast.error("Couldn't save your like. Please try again.") });
  }

  // The button's name is its visible text plus what only a screen reader needs (the title, "likes"),
  // so the name always contains what is seen (WCAG 2.5.3 Label in Name): "Like Kabali Da! 3 likes".
  const verb = liked ? "Unlike" : "Like";
  return (
    <button
      type="button"
      className={`${className}${liked ? " is-liked" : ""}`}
      aria-pressed={liked}
      onClick={onClick}
    >
      <HeartIcon width={18} height={18} aria-hidden="true" />
      {withLabel ? (
        <span>{liked ? " Liked" : " Like"}</span>
      ) : (
        <span className="visually-hidden">{`${verb} ${title}`}</span>
      )}
      {count !== undefined ? (
        <>
          <span className="like-count tabular" data-testid="like-count">
            {count}
          </span>
          <span className="visually-hidden">{count === 1 ? " like" : " likes"}</span>
        </>
      ) : null}
    </button>
  );
}
