import { useState } from 'react';
import {
  Alert,
  Button,
  Group,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import { Controller, type FieldPath, type Resolver } from 'react-hook-form';
import {
  ACCOUNT_UPDATED_MESSAGE,
  updateAccountBodySchema,
  type UpdateAccountBody,
} from '@gremienportal/contracts/account';
import { TITLE_OPTIONS } from '@gremienportal/contracts/rules';
import { FormError } from '../../../components/form-error';
import { useAuth } from '../../../lib/auth';
import { applyFieldErrors } from '../../../lib/form-errors';
import { useSpecForm } from '../../../lib/forms';
import { useUpdateAccount, type Account } from '../account.api';

export const ACCOUNT_UPDATE_FAILED_MESSAGE = 'Fehler beim Aktualisieren eines Nutzers';
export const NOTHING_CHANGED_MESSAGE = 'Es wurden keine Änderungen eingegeben.';

interface AccountValues {
  title: string;
  firstname: string;
  lastname: string;
  email: string;
  password: string;
  password_confirmation: string;
  current_password: string;
}

const PROFILE_FIELDS = ['title', 'firstname', 'lastname', 'email'] as const;
const ALL_FIELDS: readonly FieldPath<AccountValues>[] = [
  ...PROFILE_FIELDS,
  'password',
  'password_confirmation',
  'current_password',
];

/**
 * Only what changed is sent and validated (product.md P11): profile fields that differ from the stored
 * ones (admins only) and the password pair, with the current password, once either new password field
 * is filled (decision 147).
 */
export function changedFields(values: AccountValues, initial: AccountValues, canEditProfile: boolean) {
  const body: Record<string, string> = {};
  if (canEditProfile) {
    for (const field of PROFILE_FIELDS) {
      if (values[field] !== initial[field]) body[field] = values[field];
    }
  }
  if (values.password !== '' || values.password_confirmation !== '') {
    body.password = values.password;
    body.password_confirmation = values.password_confirmation;
    body.current_password = values.current_password;
  }
  return body;
}

function changedFieldsResolver(
  initial: AccountValues,
  canEditProfile: boolean,
): Resolver<AccountValues, unknown, UpdateAccountBody> {
  return async (values) => {
    const result = updateAccountBodySchema.safeParse(changedFields(values, initial, canEditProfile));
    if (result.success) return { values: result.data, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of result.error.issues) {
      const field = String(issue.path[0] ?? 'root');
      errors[field] ??= { type: issue.code, message: issue.message };
    }
    return { values: {}, errors };
  };
}

const toValues = (account: Account): AccountValues => ({
  title: account.title ?? '',
  firstname: account.firstname,
  lastname: account.lastname,
  email: account.email,
  password: '',
  password_confirmation: '',
  current_password: '',
});

/** The own account: names and e-mail for admins, the password for everyone. */
export function AccountForm({ account }: { account: Account }) {
  const { isAdmin, updateStoredUser } = useAuth();
  const updateAccount = useUpdateAccount();
  const [initial, setInitial] = useState(() => toValues(account));
  const [success, setSuccess] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [generalError, setGeneralError] = useState<string | string[] | null>(null);
  const form = useSpecForm<AccountValues, unknown, UpdateAccountBody>({
    resolver: changedFieldsResolver(initial, isAdmin),
    defaultValues: initial,
  });
  const { isSubmitting } = form.formState;

  /** The success message lasts until the next edit or blur (product.md P4). */
  const clearMessages = () => {
    setSuccess(false);
    setNotice(null);
  };

  const textField = (name: FieldPath<AccountValues>) => {
    const props = form.field(name);
    return {
      ...props,
      onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
        clearMessages();
        return props.onChange(event);
      },
      onBlur: (event: React.FocusEvent<HTMLInputElement>) => {
        clearMessages();
        return props.onBlur(event);
      },
    };
  };

  const handleSubmit = form.handleSubmit(async (body) => {
    setGeneralError(null);
    clearMessages();
    if (Object.keys(body).length === 0) {
      setNotice(NOTHING_CHANGED_MESSAGE);
      return;
    }
    try {
      await updateAccount.mutateAsync(body);
      const {
        password: _password,
        password_confirmation: _confirmation,
        current_password: _current,
        ...profile
      } = body;
      if (Object.keys(profile).length > 0) updateStoredUser(profile);
      const next = {
        ...form.getValues(),
        ...profile,
        password: '',
        password_confirmation: '',
        current_password: '',
      };
      setInitial(next);
      form.reset(next);
      setSuccess(true);
    } catch (error) {
      const placed = applyFieldErrors(error, form.setError, ALL_FIELDS);
      if (placed) {
        setGeneralError(placed.unplaced.length > 0 ? placed.unplaced : null);
      } else {
        setGeneralError(ACCOUNT_UPDATE_FAILED_MESSAGE);
      }
    }
  });

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Account bearbeiten">
      <Stack gap="lg">
        {isAdmin ? (
          <Stack gap="md">
            <Title order={2} size="h3">
              Persönliche Daten
            </Title>
            <Controller
              control={form.control}
              name="title"
              render={({ field }) => {
                const title = form.controlled(field, clearMessages);
                return (
                  <Select
                    label="Titel"
                    data={TITLE_OPTIONS}
                    required
                    maw={200}
                    {...title}
                    value={title.value || null}
                    onChange={(value) => title.onChange(value ?? '')}
                  />
                );
              }}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Vorname" autoComplete="given-name" required {...textField('firstname')} />
              <TextInput label="Nachname" autoComplete="family-name" required {...textField('lastname')} />
            </SimpleGrid>
            <TextInput label="E-Mail" type="email" autoComplete="email" required {...textField('email')} />
          </Stack>
        ) : null}

        <Stack gap="md">
          <Title order={2} size="h3">
            Passwort ändern
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <PasswordInput
              label="Aktuelles Passwort"
              description="Zur Bestätigung Ihr bisheriges Passwort; nur nötig für ein neues Passwort."
              autoComplete="current-password"
              {...textField('current_password')}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <PasswordInput
              label="Neues Passwort"
              description="Leer lassen, um das Passwort zu behalten."
              autoComplete="new-password"
              {...textField('password')}
            />
            <PasswordInput
              label="Neues Passwort bestätigen"
              autoComplete="new-password"
              {...textField('password_confirmation')}
            />
          </SimpleGrid>
        </Stack>

        <FormError message={generalError} />
        {success ? (
          <Alert color="green" variant="light" icon={<IconCircleCheck aria-hidden />} role="status">
            {ACCOUNT_UPDATED_MESSAGE}
          </Alert>
        ) : null}
        {notice ? (
          <Alert color="gray" variant="light" icon={<IconInfoCircle aria-hidden />} role="status">
            {notice}
          </Alert>
        ) : null}
        <Group>
          <Button type="submit" loading={isSubmitting}>
            Aktualisieren
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
