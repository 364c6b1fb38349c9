import { Checkbox, Group, TextInput } from '@mantine/core';
import type { FieldValues, Path, PathValue } from 'react-hook-form';
import { ACKNOWLEDGEMENT_MESSAGES } from '@gremienportal/contracts/file-messages';
import touch from '../../../components/touch-choice.module.css';
import type { SpecForm } from '../../../lib/forms';

/** The Kenntnisnahme fields as the upload and edit forms hold them. */
export interface AcknowledgementValues {
  acknowledgement_required: boolean;
  /** `YYYY-MM-DD` from the date input, '' for none. */
  acknowledgement_due: string;
}

interface AcknowledgementFieldsProps<TValues extends AcknowledgementValues & FieldValues> {
  form: SpecForm<TValues, unknown, unknown>;
}

/**
 * "Kenntnisnahme erforderlich" with an optional date "bis" (decision 131). The date shows only with
 * the checkbox; unticking it clears the date, which the server would refuse alone.
 */
export function AcknowledgementFields<TValues extends AcknowledgementValues & FieldValues>({
  form,
}: AcknowledgementFieldsProps<TValues>) {
  const required = form.watch('acknowledgement_required' as Path<TValues>) as boolean;
  const requiredField = form.field('acknowledgement_required' as Path<TValues>);
  return (
    <Group gap="md" align="flex-end" wrap="wrap">
      <Checkbox
        {...requiredField}
        label={ACKNOWLEDGEMENT_MESSAGES.required}
        description="Alle, die das Dokument sehen, bestätigen, dass sie es gelesen haben."
        onChange={(event) => {
          void requiredField.onChange(event);
          if (!event.currentTarget.checked)
            form.setValue('acknowledgement_due' as Path<TValues>, '' as PathValue<TValues, Path<TValues>>);
        }}
        style={{ flex: '1 1 260px' }}
      />
      {required ? (
        <TextInput
          type="date"
          label={ACKNOWLEDGEMENT_MESSAGES.due}
          description="optional"
          min="2000-01-01"
          max="2100-12-31"
          {...form.field('acknowledgement_due' as Path<TValues>)}
          style={{ flex: '0 1 200px' }}
        />
      ) : null}
    </Group>
  );
}

/**
 * Edit with a new content while a Kenntnisnahme is required: the admin chooses whether the members
 * confirm again ("Erneut um Kenntnisnahme bitten", ticked by default).
 */
export function AcknowledgementResetField<
  TValues extends AcknowledgementValues & { acknowledgement_reset: boolean } & FieldValues,
>({ form }: AcknowledgementFieldsProps<TValues>) {
  if (!form.watch('acknowledgement_required' as Path<TValues>)) return null;
  return (
    <Checkbox
      {...form.field('acknowledgement_reset' as Path<TValues>)}
      label={ACKNOWLEDGEMENT_MESSAGES.reset}
      classNames={{ root: touch.choice }}
      description="Mit der neuen Datei bestätigen alle erneut; frühere Bestätigungen zählen dann nicht mehr."
    />
  );
}
