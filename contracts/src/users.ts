import { z } from 'zod';
import {
  dataOf,
  emailField,
  MIN_NAME_LENGTH,
  personSchema,
  requiredText,
  roleRefSchema,
  titleField,
  TITLE_OPTIONS,
} from './common.ts';
import { effectiveRoleSchema, ownMembershipSchema } from './committees.ts';

/** Shown while a user has not yet set a password through the invitation link. */
export const USER_STATUSES = ['aktiv', 'eingeladen'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/**
 * A role the user holds (decision 189), with where it comes from; `committee` names the Gremium whose
 * active membership gives it (a committee grants one role, and a role belongs to one committee).
 */
export const userEffectiveRoleSchema = effectiveRoleSchema.extend({
  committee: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type UserEffectiveRole = z.infer<typeof userEffectiveRoleSchema>;

export const userSchema = personSchema.extend({
  /**
   * The roles an admin gave directly (decision 189): what `PUT /user/{id}` edits, so the form sends
   * back what it got. Roles a committee membership gives are in `effective_roles` only.
   */
  roles: z.array(z.string()),
  /** Every role the user holds (direct or through a committee), joined by ", ": the list shows it. */
  roles_string: z.string(),
  /** Every role the user holds, direct or through a committee: what decides what they see. */
  effective_roles: z.array(userEffectiveRoleSchema),
  status: z.enum(USER_STATUSES),
  /** A second factor is set up (decision 126); the office can reset it. */
  two_factor: z.boolean(),
  created_at: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const userListResponseSchema = dataOf(z.array(userSchema));
export type UserListResponse = z.infer<typeof userListResponseSchema>;
/** One user (GET /user/{id}): also their committee memberships, active ones first. */
export const userDetailSchema = userSchema.extend({ memberships: z.array(ownMembershipSchema) });
export type UserDetail = z.infer<typeof userDetailSchema>;
export const userDataResponseSchema = dataOf(userDetailSchema);
export type UserDataResponse = z.infer<typeof userDataResponseSchema>;
export const userResponseSchema = z.object({ user: userSchema });
export type UserResponse = z.infer<typeof userResponseSchema>;

export const ROLES_REQUIRED_MESSAGE = 'Bitte mindestens eine Rolle wählen.';
export const EMAIL_TAKEN_MESSAGE = 'Diese E-Mail-Adresse wird bereits verwendet.';
export const unknownRoleMessage = (role: string | number) => `Die Rolle „${role}“ gibt es nicht.`;
export const ADMIN_ROLES_GRANT_FORBIDDEN_MESSAGE =
  'Nur ein Super-Admin darf die Rollen Admin und Super-Admin vergeben oder entziehen.';
export const ADMIN_USER_CHANGE_FORBIDDEN_MESSAGE =
  'Nur ein Super-Admin darf Nutzer mit der Rolle Admin oder Super-Admin ändern, löschen oder einladen.';
export const SELF_DELETE_FORBIDDEN_MESSAGE = 'Sie können Ihr eigenes Konto nicht löschen.';
export const LAST_SUPER_ADMIN_MESSAGE =
  'Der letzte Super-Admin muss die Rolle Super-Admin behalten. Bitte zuerst einen weiteren Super-Admin ernennen.';
export const ALREADY_ACTIVE_MESSAGE =
  'Dieser Nutzer hat sein Passwort bereits festgelegt. Er kann über „Passwort vergessen?“ ein neues anfordern.';

export const USER_CREATED_MESSAGE =
  'Nutzer wurde erfolgreich angelegt. Eine Einladung wurde per E-Mail gesendet.';
export const USER_UPDATED_MESSAGE = 'Nutzer erfolgreich aktualisiert';
export const USER_DELETED_MESSAGE = 'Nutzer wurde erfolgreich gelöscht';
export const INVITATION_SENT_MESSAGE = 'Die Einladung wurde erneut gesendet.';
export const USER_UPDATE_FAILED_MESSAGE = 'Fehler beim Aktualisieren eines Nutzers';
export const USER_DELETE_FAILED_MESSAGE = 'Fehler beim Löschen eines Nutzers';
export const USER_CREATE_FAILED_MESSAGE = 'Fehler beim Anlegen eines Nutzers';
export const INVITATION_FAILED_MESSAGE = 'Fehler beim Senden der Einladung';

export const USER_TITLE_OPTIONS = TITLE_OPTIONS;

const rolesField = z
  .array(roleRefSchema, { error: ROLES_REQUIRED_MESSAGE })
  .min(1, { error: ROLES_REQUIRED_MESSAGE });

/** product.md P11 "User create"; no password: the new user is invited by e-mail (product.md P8.1). */
export const createUserBodySchema = z.object({
  title: titleField,
  firstname: requiredText('Vorname', MIN_NAME_LENGTH),
  lastname: requiredText('Nachname', MIN_NAME_LENGTH),
  email: emailField,
  roles: rolesField,
});
export type CreateUserBody = z.infer<typeof createUserBodySchema>;
export type CreateUserInput = z.input<typeof createUserBodySchema>;

/**
 * The edit form of a user who holds a role through a committee (decision 189): the direct roles
 * may be emptied, as `PUT /user/{id}` allows for them.
 */
export const committeeMemberFormSchema = createUserBodySchema.extend({
  roles: z.array(roleRefSchema, { error: ROLES_REQUIRED_MESSAGE }),
});

/**
 * product.md P11 "User update"; roles may be left out (kept as they are). They are the direct roles
 * (decision 189): an empty list only for a user who holds a role through a committee, which the
 * server checks (422 with ROLES_REQUIRED_MESSAGE otherwise).
 */
export const updateUserBodySchema = z.object({
  title: titleField,
  firstname: requiredText('Vorname', MIN_NAME_LENGTH),
  lastname: requiredText('Nachname', MIN_NAME_LENGTH),
  email: emailField,
  roles: z.array(roleRefSchema, { error: ROLES_REQUIRED_MESSAGE }).optional(),
});
export type UpdateUserBody = z.infer<typeof updateUserBodySchema>;
export type UpdateUserInput = z.input<typeof updateUserBodySchema>;
