import { useId, useState } from 'react';
import { Controller, type UseFormSetError } from 'react-hook-form';
import { Checkbox, Input, NumberInput, Stack, TextInput } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import {
  API_KEY_SCOPE_LABELS,
  API_KEY_SCOPES,
  API_KEY_VALID_DAYS,
  createApiKeyBodySchema,
  type ApiKeyScope,
  type CreateApiKeyBody,
} from '@gremienportal/contracts/api-keys';
import { FormFooter } from '../../../components/form-footer';
import touch from '../../../components/touch-choice.module.css';
import { contractResolver } from '../../../lib/contract-resolver';
import { ApiError, errorMessage, isApiError } from '../../../lib/api-client';
import { applyFieldErrors, type GeneralError } from '../../../lib/form-errors';
import { formatDate } from '../../../lib/format';
import { useSpecForm, type ControlledField } from '../../../lib/forms';
import { useCreateApiKey, type CreatedApiKey } from '../api-keys.api';
import { expiryFor } from '../api-keys.rules';

export const CREATE_FAILED_MESSAGE = 'Der API-Schlüssel konnte nicht angelegt werden.';

interface ApiKeyFormValues {
  name: string;
  scopes: ApiKeyScope[];
  /** NumberInput gives '' while empty. */
  valid_days: number | string;
}

const FIELDS = ['name', 'scopes', 'valid_days'] as const;

/**
 * A 422's field messages under the fields; the server names a wrong entry of the list by its
 * place ("scopes.1"), the form shows it at the Berechtigungen.
 */
function placeServerErrors(error: unknown, setError: UseFormSetError<ApiKeyFormValues>) {
  if (!isApiError(error) || !error.errors) return applyFieldErrors(error, setError, FIELDS);
  const errors: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(error.errors)) {
    const list = (errors[key.split('.')[0]!] ??= []);
    list.push(...messages.filter((message) => !list.includes(message)));
  }
  return applyFieldErrors(new ApiError(error.status, error.message, { errors }), setError, FIELDS);
}
const EMPTY: ApiKeyFormValues = { name: '', scopes: [], valid_days: API_KEY_VALID_DAYS.default };

/** "Berechtigungen": one checkbox per scope, grouped by a fieldset whose legend names them. */
function ScopeChoices({ value, onChange, onBlur, error, disabled, ref }: ControlledField<ApiKeyScope[]>) {
  const descriptionId = useId();
  const errorId = useId();
  const toggle = (scope: ApiKeyScope, checked: boolean) =>
    // The contract's order, whatever order they were ticked in.
    onChange(API_KEY_SCOPES.filter((item) => (item === scope ? checked : value.includes(item))));
  return (
    <fieldset
      style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}
      aria-describedby={error ? `${descriptionId} ${errorId}` : descriptionId}
    >
      <Input.Label component="legend" required size="md" p={0}>
        Berechtigungen
      </Input.Label>
      <Input.Description id={descriptionId} size="md" mb="xs">
        Der Schlüssel darf nur, was hier gewählt ist, und nie mehr als Sie selbst.
      </Input.Description>
      <Stack gap="xs">
        {API_KEY_SCOPES.map((scope, index) => (
          <Checkbox
            key={scope}
            // The first box takes the focus when the choice is missing.
            ref={index === 0 ? ref : undefined}
            label={API_KEY_SCOPE_LABELS[scope]}
            checked={value.includes(scope)}
            disabled={disabled}
            aria-invalid={error ? true : undefined}
            classNames={{ root: touch.choice }}
            onChange={(event) => toggle(scope, event.currentTarget.checked)}
            onBlur={onBlur}
          />
        ))}
      </Stack>
      {error ? (
        <Input.Error id={errorId} size="md" mt="xs">
          {error}
        </Input.Error>
      ) : null}
    </fieldset>
  );
}

interface CreateApiKeyFormProps {
  onCreated: (key: CreatedApiKey) => void;
  onCancel?: () => void;
}

/**
 * "Neuer API-Schlüssel": name, Berechtigungen and Gültigkeit, checked with the contract schema
 * as the server checks them; the server's field messages go under the fields.
 */
export function CreateApiKeyForm({ onCreated, onCancel }: CreateApiKeyFormProps) {
  const create = useCreateApiKey();
  const form = useSpecForm<ApiKeyFormValues, unknown, CreateApiKeyBody>({
    resolver: contractResolver(createApiKeyBodySchema),
    defaultValues: EMPTY,
  });
  const [generalError, setGeneralError] = useState<GeneralError | null>(null);
  const { isSubmitting: busy } = form.formState;
  const expiry = expiryFor(form.watch('valid_days'));

  const handleSubmit = form.handleSubmit(async (body) => {
    setGeneralError(null);
    try {
      const created = await create.mutateAsync(body);
      form.reset(EMPTY);
      onCreated(created);
    } catch (error) {
      const placed = placeServerErrors(error, form.setError);
      if (placed) {
        setGeneralError(placed.unplaced.length > 0 ? { messages: placed.unplaced } : null);
      } else {
        const detail = errorMessage(error, '');
        setGeneralError({ title: CREATE_FAILED_MESSAGE, messages: detail ? [detail] : [] });
      }
    }
  });

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate aria-label="Neuer API-Schlüssel">
      <Stack gap="lg">
        <TextInput
          label="Name"
          description="Wofür der Schlüssel ist, z. B. „Import Mitgliederverwaltung“"
          autoComplete="off"
          required
          {...form.field('name')}
        />
        <Controller
          control={form.control}
          name="scopes"
          render={({ field }) => <ScopeChoices {...form.controlled(field)} />}
        />
        <Controller
          control={form.control}
          name="valid_days"
          render={({ field }) => (
            <NumberInput
              label="Gültigkeit in Tagen"
              description={
                expiry
                  ? `1 bis ${API_KEY_VALID_DAYS.max} Tage; gültig bis ${formatDate(expiry)}`
                  : `1 bis ${API_KEY_VALID_DAYS.max} Tage`
              }
              required
              {...form.controlled(field)}
              min={1}
              max={API_KEY_VALID_DAYS.max}
              clampBehavior="none"
              allowDecimal={false}
              allowNegative={false}
              thousandSeparator={false}
              maw={260}
            />
          )}
        />
        <FormFooter
          busy={busy}
          generalError={generalError}
          onCancel={onCancel}
          submitIcon={<IconKey size={18} aria-hidden />}
          submitLabel="Schlüssel anlegen"
        />
      </Stack>
    </form>
  );
}
