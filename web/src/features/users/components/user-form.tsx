import { useState, type ReactNode } from 'react';
import { Button, Grid, Group, MultiSelect, Select, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, type DefaultValues } from 'react-hook-form';
import { isSuperAdmin } from '@gremienportal/contracts/rules';
import type { Role } from '@gremienportal/contracts/common';
import {
  committeeMemberFormSchema,
  createUserBodySchema,
  USER_TITLE_OPTIONS,
  type CreateUserBody,
  type CreateUserInput,
} from '@gremienportal/contracts/users';
import { FormError } from '../../../components/form-error';
import { errorMessage } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { applyFieldErrors } from '../../../lib/form-errors';
import { useSpecForm } from '../../../lib/forms';
import { ADMIN_ROLES_HINT, roleOptions } from '../users.permissions';

/** Form values as the contract reads them; the role select holds ids as strings. */
export type UserFormValues = CreateUserInput;

const USER_FIELDS = ['title', 'firstname', 'lastname', 'email', 'roles'] as const;
export const EMPTY_USER_VALUES: DefaultValues<UserFormValues> = {
  firstname: '',
  lastname: '',
  email: '',
  roles: [],
};

const FORM_BREAKPOINTS = { xs: '20em', sm: '28em', md: '44em', lg: '60em', xl: '75em' };

/** Role ids travel as numbers (product.md P10: ids in requests). */
const withNumericRoleIds = (body: CreateUserBody): CreateUserBody => ({
  ...body,
  roles: body.roles.map((role) => (typeof role === 'string' && /^\d+$/.test(role) ? Number(role) : role)),
});

interface UserFormProps {
  /** The form's accessible name, e.g. "Nutzer anlegen". */
  name: string;
  roles: readonly Role[];
  initialValues?: DefaultValues<UserFormValues>;
  /** "Anrede" on the create form, "Titel (Anrede)" on the edit page (product.md P3). */
  titleLabel: string;
  submitLabel: string;
  /** The general text when the server refuses for another reason than the fields (product.md P12). */
  failureMessage: string;
  /** Throws the ApiError of a failed call; the form shows it. */
  onSubmit: (body: CreateUserBody) => Promise<void>;
  /** The create form empties itself (selects included) after success (product.md P4). */
  resetOnSuccess?: boolean;
  /** Further buttons next to the submit button (e.g. "Abbrechen"). */
  secondaryAction?: ReactNode;
  /** The role select's label: „Rollen“, on the edit page „Direkt vergebene Rollen“ (decision 189). */
  rolesLabel?: string;
  /** Read-only beside the role select: every role the user holds, with its source. */
  rolesAside?: ReactNode;
  /** A committee gives the user a role: the direct roles may be emptied (decision 189). */
  directRolesOptional?: boolean;
}

/** Title, names, e-mail and roles of a user; validated with the contract schema on blur and submit. */
export function UserForm({
  name,
  roles,
  initialValues = EMPTY_USER_VALUES,
  titleLabel,
  submitLabel,
  failureMessage,
  onSubmit,
  resetOnSuccess = false,
  secondaryAction,
  rolesLabel = 'Rollen',
  rolesAside,
  directRolesOptional = false,
}: UserFormProps) {
  const { user } = useAuth();
  const actorRoles = user?.roles ?? [];
  const [generalError, setGeneralError] = useState<{ title?: string; messages: string[] } | null>(null);
  const form = useSpecForm<UserFormValues, unknown, CreateUserBody>({
    resolver: zodResolver(directRolesOptional ? committeeMemberFormSchema : createUserBodySchema),
    defaultValues: initialValues,
  });
  const { isSubmitting } = form.formState;

  const handleSubmit = form.handleSubmit(async (body) => {
    setGeneralError(null);
    try {
      await onSubmit(withNumericRoleIds(body));
      if (resetOnSuccess) form.reset(EMPTY_USER_VALUES);
    } catch (error) {
      const placed = applyFieldErrors(error, form.setError, USER_FIELDS);
      if (placed) {
        setGeneralError(placed.unplaced.length > 0 ? { messages: placed.unplaced } : null);
      } else {
        const detail = errorMessage(error, '');
        setGeneralError({ title: failureMessage, messages: detail ? [detail] : [] });
      }
    }
  });

  return (
    <form onSubmit={handleSubmit} noValidate aria-label={name}>
      <Stack gap="md">
        {/* Laid out by the form's own width: it sits in a drawer on /user and on its own page. */}
        <Grid gap="md" type="container" breakpoints={FORM_BREAKPOINTS}>
          <Grid.Col span={{ base: 12, sm: 4, md: 2 }}>
            <Controller
              control={form.control}
              name="title"
              render={({ field }) => (
                <Select
                  label={titleLabel}
                  placeholder="Bitte wählen"
                  data={USER_TITLE_OPTIONS}
                  required
                  {...form.controlled(field)}
                  value={field.value ?? null}
                  // Cleared, the title is undefined again, as in EMPTY_USER_VALUES (not '').
                  onChange={(value) => {
                    field.onChange(value ?? undefined);
                    form.handleFieldChange('title');
                  }}
                />
              )}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 8, md: 5 }}>
            <TextInput label="Vorname" autoComplete="off" required {...form.field('firstname')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <TextInput label="Nachname" autoComplete="off" required {...form.field('lastname')} />
          </Grid.Col>
          {/* Long addresses need the room. */}
          <Grid.Col span={12}>
            <TextInput label="E-Mail" type="email" autoComplete="off" required {...form.field('email')} />
          </Grid.Col>
          <Grid.Col span={rolesAside ? { base: 12, md: 6 } : 12}>
            <Controller
              control={form.control}
              name="roles"
              render={({ field }) => (
                <MultiSelect
                  label={rolesLabel}
                  placeholder={field.value.length === 0 ? 'Rollen wählen' : undefined}
                  description={isSuperAdmin(actorRoles) ? undefined : ADMIN_ROLES_HINT}
                  data={roleOptions(roles, actorRoles)}
                  required={!directRolesOptional}
                  // Searchable keeps the input focusable and clickable once roles are chosen.
                  searchable
                  clearable
                  clearButtonProps={{ 'aria-label': 'Alle Rollen entfernen' }}
                  {...form.controlled(field)}
                  value={field.value.map(String)}
                />
              )}
            />
          </Grid.Col>
          {rolesAside ? <Grid.Col span={{ base: 12, md: 6 }}>{rolesAside}</Grid.Col> : null}
        </Grid>
        <FormError title={generalError?.title} message={generalError?.messages} />
        <Group>
          <Button type="submit" loading={isSubmitting}>
            {submitLabel}
          </Button>
          {secondaryAction}
        </Group>
      </Stack>
    </form>
  );
}
