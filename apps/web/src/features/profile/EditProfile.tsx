import {
  authMessages,
  changeEmailRequestSchema,
  changePasswordRequestSchema,
  updateMeRequestSchema,
} from "@diginoor/api/auth";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router";
import { ApiError, messageOf } from "../../lib/api.ts";
import {
  applyServerErrors,
  confirmPasswordCheck,
  type FieldMessages,
  fieldProps,
  hasMessages,
  schemaResolver,
  useAppForm,
} from "../../lib/form.ts";
import { sessionQueryKey } from "../../lib/session.ts";
import { Button } from "../../ui/Button.tsx";
import { TextField, type TextFieldProps } from "../../ui/TextField.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { EmailField, PasswordFields, PhoneField } from "../../ui/form.tsx";
import { changePassword, requestEmailChange, updateProfile } from "./api.ts";
import { DataRights } from "./DataRights.tsx";
import { NotificationSettings } from "./NotificationSettings.tsx";
import { VerifyIdentity } from "./VerifyIdentity.tsx";
import { ProfileImage } from "./ProfileImage.tsx";
import type { RequiredAccount, User } from "../../lib/account.tsx";
import "./profile.css";

const SOMETHING_WRONG = "Something Went Wrong";

/** Everything a signed-in user can change: pictures, name and phone, email, notifications, password; their data rights. */
export function EditProfile({ user, account }: { user: User; account: RequiredAccount }) {
  return (
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
      <VerifyIdentity />
      <NotificationSettings />
      <SecurityForm onSignedOut={account.markLeaving} />
      <DataRights onDeleted={account.markLeaving} />
    </>
  );
}

/** Field messages of a failed change, or a toast when the failure is not about a field. */
function useFailureToast() {
  const toast = useToast();
  return (shown: FieldMessages, err: unknown) =>
    toast.error(
      hasMessages(shown) ? (Object.values(shown)[0] ?? SOMETHING_WRONG) : messageOf(err, SOMETHING_WRONG),
    );
}

/** A wrong current password (401) is the current password field's error. */
const wrongPassword = (err: unknown): FieldMessages =>
  err instanceof ApiError && err.status === 401
    ? { currentPassword: err.message || authMessages.wrongCurrentPassword }
    : {};

const personalValues = (user: User) => ({ name: user.name, phone: user.phone ?? "" });
/** The request body: an empty phone removes it. */
const personalBody = (values: { name: string; phone: string }) => ({
  name: values.name,
  phone: values.phone.trim() === "" ? null : values.phone,
});

function PersonalInfoForm({ user }: { user: User }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const form = useAppForm({
    defaultValues: personalValues(user),
    resolver: schemaResolver(updateMeRequestSchema, { prepare: personalBody }),
  });

  const save = useMutation({
    mutationFn: updateProfile,
    onSuccess: ({ user: updated }) => {
      queryClient.setQueryData(sessionQueryKey, updated);
      form.reset(personalValues(updated));
      toast.success(authMessages.userUpdated);
    },
    onError: (err) => {
      if (hasMessages(applyServerErrors(form, err))) toast.error(SOMETHING_WRONG);
      else toast.error(messageOf(err, SOMETHING_WRONG));
    },
  });

  const onSubmit = form.handleSubmit((values) => {
    const body = personalBody(values);
    save.mutate({ ...body, name: body.name.trim() });
  });

  return (
    <section className="profile-card" aria-labelledby="personal-title">
      <h2 className="profile-card__title" id="personal-title">
        Personal info
      </h2>
      <form className="auth-form" noValidate onSubmit={onSubmit} aria-labelledby="personal-title">
        <TextField label="Name" autoComplete="name" required {...fieldProps(form, "name")} />
        <PhoneField
          hint="With the country code, like +919876543210. Leave empty to remove it."
          {...fieldProps(form, "phone")}
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

function EmailForm({ user }: { user: User }) {
  const toast = useToast();
  const failed = useFailureToast();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useAppForm({
    defaultValues: { email: "", currentPassword: "" },
    resolver: schemaResolver(changeEmailRequestSchema, {
      check: (values): FieldMessages =>
        values.email.trim().toLowerCase() === user.email.toLowerCase()
          ? { email: "This is already your email address" }
          : {},
    }),
  });

  const change = useMutation({
    mutationFn: requestEmailChange,
    onSuccess: (_body, sent) => {
      setSentTo(sent.email);
      form.reset();
      toast.success(`Verification link sent to ${sent.email}`);
    },
    onError: (err) => {
      const taken: FieldMessages =
        err instanceof ApiError && err.code === "email_taken" ? { email: err.message } : {};
      failed(applyServerErrors(form, err, { extra: { ...wrongPassword(err), ...taken } }), err);
    },
  });

  const onSubmit = form.handleSubmit(({ email, currentPassword }) => {
    setSentTo(null);
    change.mutate({ email: email.trim(), currentPassword });
  });

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
      <form className="auth-form" noValidate onSubmit={onSubmit} aria-labelledby="email-title">
        <EmailField label="New email" {...fieldProps(form, "email")} />
        <CurrentPasswordField {...fieldProps(form, "currentPassword")} />
        <div className="profile-card__actions">
          <Button type="submit" variant="secondary" loading={change.isPending}>
            SEND VERIFICATION LINK
          </Button>
        </div>
      </form>
    </section>
  );
}

function CurrentPasswordField(field: Omit<TextFieldProps, "label">) {
  return (
    <TextField label="Current password" type="password" autoComplete="current-password" required {...field} />
  );
}

type PasswordChange = { currentPassword: string; password: string; confirmPassword: string };

/** Password change ends every session, this one included: the user signs in again. */
function SecurityForm({ onSignedOut }: { onSignedOut: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const failed = useFailureToast();
  const form = useAppForm<PasswordChange>({
    defaultValues: { currentPassword: "", password: "", confirmPassword: "" },
    resolver: schemaResolver(changePasswordRequestSchema, {
      check: confirmPasswordCheck(authMessages.confirmMismatch),
    }),
  });

  const change = useMutation({
    mutationFn: changePassword,
    onSuccess: () => {
      onSignedOut();
      toast.success(authMessages.passwordUpdated);
      navigate("/login", { replace: true });
      queryClient.setQueryData(sessionQueryKey, null);
    },
    onError: (err) => failed(applyServerErrors(form, err, { extra: wrongPassword(err) }), err),
  });

  const onSubmit = form.handleSubmit((values) => change.mutate(values));

  return (
    <section className="profile-card" aria-labelledby="security-title">
      <h2 className="profile-card__title" id="security-title">
        Security
      </h2>
      <p className="profile-card__lead">Changing your password signs you out everywhere, including here.</p>
      <form className="auth-form" noValidate onSubmit={onSubmit} aria-labelledby="security-title">
        <CurrentPasswordField {...fieldProps(form, "currentPassword")} />
        <PasswordFields
          password={fieldProps(form, "password")}
          confirmPassword={fieldProps(form, "confirmPassword")}
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
