import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ChangeEvent, useEffect, useId, useRef, useState } from "react";
import { sessionQueryKey } from "../../lib/session.ts";
import { Spinner } from "../../ui/Spinner.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { messageOf } from "../../lib/api.ts";
import { type ProfileImageKind, uploadProfileImage } from "./api.ts";
import { checkImageFile } from "./image-check.ts";

const TEXT: Record<ProfileImageKind, { add: string; change: string; done: string }> = {
  avatar: {
    add: "Upload a profile picture",
    change: "Change profile picture",
    done: "Profile picture updated",
  },
  cover: { add: "Upload a cover image", change: "Change cover image", done: "Cover image updated" },
};

/**
 * Avatar or cover: shows the image (click to replace it) or an uploader when there is none. The file
 * is checked here first (JPEG/PNG by content, at most 5 MB), previewed at once, then uploaded; the
 * server checks again and re-encodes.
 */
export function ProfileImage({
  kind,
  url,
  name,
  editable = true,
}: {
  kind: ProfileImageKind;
  url: string | null;
  name: string;
  editable?: boolean;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const inputRef = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  const text = TEXT[kind];

  // Object URLs hold the file in memory until revoked.
  useEffect(() => {
    if (!preview) return;
    return () => URL.revokeObjectURL(preview);
  }, [preview]);

  const upload = useMutation({
    mutationFn: (file: File) => uploadProfileImage(kind, file),
    onSuccess: (user) => {
      queryClient.setQueryData(sessionQueryKey, user);
      setPreview(null);
      toast.success(text.done);
    },
    onError: (err) => {
      setPreview(null);
      const message = messageOf(err, "Something Went Wrong");
      setError(message);
      toast.error(message);
    },
  });

  async function onPick(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = ""; // picking the same file again must fire change again
    if (!file) return;
    setError(null);
    const problem = await checkImageFile(file);
    if (problem) {
      setError(problem);
      toast.error(problem);
      return;
    }
    setPreview(URL.createObjectURL(file));
    upload.mutate(file);
  }

  const shown = preview ?? url;
  const busy = upload.isPending;
  const initials = name.trim().charAt(0).toUpperCase() || "?";

  const picture = shown ? (
    <img
      className={`profile-image__img profile-image__img--${kind}`}
      src={shown}
      alt={kind === "avatar" ? `${name}'s profile picture` : `${name}'s cover image`}
      width={kind === "avatar" ? 160 : 1500}
      height={kind === "avatar" ? 160 : 500}
    />
  ) : kind === "avatar" ? (
    <span className="profile-image__initials" aria-hidden="true">
      {initials}
    </span>
  ) : (
    <span className="profile-image__empty" aria-hidden="true" />
  );

  if (!editable) return <div className={`profile-image profile-image--${kind}`}>{picture}</div>;

  return (
    <div className={`profile-image profile-image--${kind}${shown ? "" : " profile-image--absent"}`}>
      <button
        type="button"
        className="profile-image__button"
        onClick={() => inputRef.current?.click()}
        disabled={busy}
        aria-label={shown ? text.change : text.add}
        aria-describedby={error ? errorId : undefined}
      >
        {picture}
        <span className="profile-image__hint">
          {busy ? <Spinner label="Uploading" /> : <CameraIcon />}
          <span className="profile-image__hint-text">
            {busy ? "Uploading…" : shown ? "Change" : text.add}
          </span>
        </span>
      </button>
      <input
        ref={inputRef}
        className="visually-hidden"
        type="file"
        name={kind}
        accept="image/png,image/jpeg"
        tabIndex={-1}
        aria-hidden="true"
        onChange={onPick}
      />
      {error ? (
        <p className="profile-image__error" id={errorId} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function CameraIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M4 8h3l2-3h6l2 3h3v11H4z"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinejoin="round"
      />
      <circle cx="12" cy="13" r="3.5" fill="none" stroke="currentColor" strokeWidth="1.8" />
    </svg>
  );
}
