import {
  authMessages,
  changeEmailRequestSchema,
  changePasswordRequestSchema,
  updateMeRequestSchema,
} from "@diginoor/api/auth";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { ApiError } from "../../lib/api.ts";
import { sessionQueryKey } from "../../lib/session.ts";
import { Button } from "../../ui/Button.tsx";
import { ErrorState } from "../../ui/ErrorState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { TextField } from "../../ui/TextField.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { type AccountUser, messageOf, serverFieldErrors } from "../auth/api.ts";
import { EmailField, PasswordFields } from "../auth/components.tsx";
import {
  type FieldErrors,
  fieldErrors,
  focusFirstError,
  hasErrors,
  withConfirmCheck,
} from "../auth/validation.ts";
import { changePassword, requestEmailChange, updateProfile } from "./api.ts";
import { NotificationSettings } from "./NotificationSettings.tsx";
import { ProfileImage } from "./ProfileImage.tsx";
import { SignedOut } from "../../ui/SignedOut.tsx";
import { useRequiredAccount } from "../../lib/use-required-account.ts";
import "../auth/auth.css";
import "./profile.css";

const SOMETHING_WRONG = "Something Went Wrong";

export function Component() {
  const account = useRequiredAccount();
  const { user, isLoading, error, refetch, isRefetching, signedOutHere } = account;

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
        {signedOutHere ? (
          <SignedOut />
        ) : isLoading || (!user && !error) ? (
          <div className="profile-card" aria-busy="true">
            <Skeleton height="2.5rem" />
            <Skeleton height="2.5rem" />
            <Skeleton height="2.5rem" />
          </div>
        ) : !user ? (
          <ErrorState
            title="We couldn't load your profile"
            error={error}
            onRetry={() => refetch()}
            retrying={isRefetching}
          />
        ) : (
          <>
            <section className="profile-card" aria-labelledby="images-title">
              <h2 className="profile-card__title" id="images-title">
                Pictures
              </h2>
              <p className="profile-card__lead">JPEG or PNG, up to 5 MB. Click an image to replace it.</p>
              <div className="profile-edit__images">
                <ProfileImage kind="cover" url={user.coverUrl} name={user.name} />
                <ProfileImage kind="avatar" url={user.avatarUrl} name={user.name} />
              </div>
            </section>
            <PersonalInfoForm user={user} />
            <EmailForm user={user} />
            <NotificationSettings />
            <SecurityForm onSignedOut={account.markLeaving} />
          </>
        )}
      </div>
    </div>
  );
}

function PersonalInfoForm({ user }: { user: AccountUser }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [values, setValues] = useState({ name: user.name, phone: user.phone ?? "" });
  const [errors, setErrors] = useState<FieldErrors>({});
  const formRef = useRef<HTMLFormElement>(null);

  const save = useMutation({
    mutationFn: updateProfile,
    onSuccess: ({ user: updated }) => {
      queryClient.setQueryData(sessionQueryKey, updated);
      setValues({ name: updated.name, phone: updated.phone ?? "" });
      toast.success(authMessages.userUpdated);
    },
    onError: (err) => {
      const fields = serverFieldErrors(err);
      if (hasErrors(fields)) {
        setErrors(fields);
        focusFirstError(formRef.current, fields);
        toast.error(SOMETHING_WRONG);
        return;
      }
      toast.error(messageOf(err, SOMETHING_WRONG));
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = { name: values.name, phone: values.phone.trim() === "" ? null : values.phone };
    const found = fieldErrors(updateMeRequestSchema, body);
    setErrors(found);
    if (hasErrors(found)) {
      focusFirstError(formRef.current, found);
      return;
    }
    save.mutate({ name: values.name.trim(), phone: body.phone });
  }

  return (
    <section className="profile-card" aria-labelledby="personal-title">
      <h2 className="profile-card__title" id="personal-title">
        Personal info
      </h2>
      <form
        ref={formRef}
        className="auth-form"
        noValidate
        onSubmit={onSubmit}
        aria-labelledby="personal-title"
      >
        <TextField
          label="Name"
          name="name"
          autoComplete="name"
          value={values.name}
          onChange={(e) => setValues((v) => ({ ...v, name: e.target.value }))}
          error={errors.name}
          required
          maxLength={100}
        />
        <TextField
          label="Phone"
          name="phone"
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          placeholder="Phone Number with country code"
          hint="With the country code, like +919876543210. Leave empty to remove it."
          value={values.phone}
          onChange={(e) => setValues((v) => ({ ...v, phone: e.target.value }))}
          error={errors.phone}
        />
        <div className="profile-card__actions">
          <Button type="submit" loading={save.isPending}>
            SAVE CHANGES
          </Button>
        </div>
      </form>
    </section>
  );
}

function EmailForm({ user }: { user: AccountUser }) {
  const toast = useToast();
  const [values, setValues] = useState({ email: "", currentPassword: "" });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [sentTo, setSentTo] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  const change = useMutation({
    mutationFn: requestEmailChange,
    onSuccess: (_body, sent) => {
      setSentTo(sent.email);
      setValues({ email: "", currentPassword: "" });
      toast.success(`Verification link sent to ${sent.email}`);
    },
    onError: (err) => {
      const fields = serverFieldErrors(err);
      if (err instanceof ApiError && err.status === 401 && !fields.currentPassword) {
        fields.currentPassword = err.message || authMessages.wrongCurrentPassword;
      }
      if (err instanceof ApiError && err.code === "email_taken") fields.email = err.message;
      if (hasErrors(fields)) {
        setErrors(fields);
        focusFirstError(formRef.current, fields);
      }
      toast.error(
        hasErrors(fields) ? (Object.values(fields)[0] ?? SOMETHING_WRONG) : messageOf(err, SOMETHING_WRONG),
      );
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = fieldErrors(changeEmailRequestSchema, values);
    if (!found.email && values.email.trim().toLowerCase() === user.email.toLowerCase()) {
      found.email = "This is already your email address";
    }
    setErrors(found);
    if (hasErrors(found)) {
      focusFirstError(formRef.current, found);
      return;
    }
    setSentTo(null);
    change.mutate({ email: values.email.trim(), currentPassword: values.currentPassword });
  }

  return (
    <section className="profile-card" aria-labelledby="email-title">
      <h2 className="profile-card__title" id="email-title">
        Email
      </h2>
      <p className="profile-card__lead">
        You sign in with <strong>{user.email}</strong>
        {user.emailVerified ? "" : " (not verified yet)"}. To change it, enter the new address and your
        current password: we send a verification link to the new address, and the change happens when you open
        it.
      </p>
      {sentTo ? (
        <div className="auth-notice auth-notice--success" role="status">
          <p>
            A verification link was sent to <strong>{sentTo}</strong>. Your email changes when you open it.
          </p>
        </div>
      ) : null}
      <form ref={formRef} className="auth-form" noValidate onSubmit={onSubmit} aria-labelledby="email-title">
        <EmailField
          label="New email"
          value={values.email}
          onChange={(e) => setValues((v) => ({ ...v, email: e.target.value }))}
          error={errors.email}
        />
        <TextField
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          value={values.currentPassword}
          onChange={(e) => setValues((v) => ({ ...v, currentPassword: e.target.value }))}
          error={errors.currentPassword}
          required
        />
        <div className="profile-card__actions">
          <Button type="submit" variant="secondary" loading={change.isPending}>
            SEND VERIFICATION LINK
          </Button>
        </div>
      </form>
    </section>
  );
}

/** Password change ends every session, this one included: the user signs in again. */
function SecurityForm({ onSignedOut }: { onSignedOut: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const [values, setValues] = useState({ currentPassword: "", password: "", confirmPassword: "" });
  const [errors, setErrors] = useState<FieldErrors>({});
  const formRef = useRef<HTMLFormElement>(null);

  const change = useMutation({
    mutationFn: changePassword,
    onSuccess: () => {
      onSignedOut();
      toast.success(authMessages.passwordUpdated);
      navigate("/login", { replace: true });
      queryClient.setQueryData(sessionQueryKey, null);
    },
    onError: (err) => {
      const fields = serverFieldErrors(err);
      if (err instanceof ApiError && err.status === 401 && !fields.currentPassword) {
        fields.currentPassword = err.message || authMessages.wrongCurrentPassword;
      }
      if (hasErrors(fields)) {
        setErrors(fields);
        focusFirstError(formRef.current, fields);
      }
      toast.error(
        hasErrors(fields) ? (Object.values(fields)[0] ?? SOMETHING_WRONG) : messageOf(err, SOMETHING_WRONG),
      );
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = withConfirmCheck(fieldErrors(changePasswordRequestSchema, values), values);
    setErrors(found);
    if (hasErrors(found)) {
      focusFirstError(formRef.current, found);
      return;
    }
    change.mutate(values);
  }

  return (
    <section className="profile-card" aria-labelledby="security-title">
      <h2 className="profile-card__title" id="security-title">
        Security
      </h2>
      <p className="profile-card__lead">Changing your password signs you out everywhere, including here.</p>
      <form
        ref={formRef}
        className="auth-form"
        noValidate
        onSubmit={onSubmit}
        aria-labelledby="security-title"
      >
        <TextField
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          value={values.currentPassword}
          onChange={(e) => setValues((v) => ({ ...v, currentPassword: e.target.value }))}
          error={errors.currentPassword}
          required
        />
        <PasswordFields
          values={values}
          errors={errors}
          onChange={(field, value) => setValues((v) => ({ ...v, [field]: value }))}
        />
        <div className="profile-card__actions">
          <Button type="submit" loading={change.isPending}>
            UPDATE PASSWORD
          </Button>
        </div>
      </form>
    </section>
  );
}
