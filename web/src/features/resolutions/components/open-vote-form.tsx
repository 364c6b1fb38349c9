import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Radio, Stack, Text } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { IconCalendarEvent, IconPlayerPlay } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Motion, Procedure } from '@gremienportal/contracts/resolutions';
import { openConfirmDialog } from '../../../components/confirm-dialog';
import { GermanDates } from '../../../components/german-dates';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { motionCommitteeQueryOptions, useOpenMotion } from '../resolutions.api';
import { deadlineError, deadlineFromPicker, defaultDeadline, pickerValueOf } from '../open-motion.rules';
import { PROCEDURE_LABELS } from '../resolution-labels';

const OPEN_FAILED = 'Die Abstimmung konnte nicht geöffnet werden.';

/**
 * "Abstimmung öffnen" (Vorsitz, admins): in the meeting, or as an Umlaufverfahren with a deadline
 * (a week unless chosen otherwise) where the committee decides that way. Opening fixes who may
 * vote; an Umlaufverfahren mails each of them, so it is asked about first.
 */
export function OpenVoteForm({ motion }: { motion: Motion }) {
  const committee = useQuery(motionCommitteeQueryOptions(motion.committee.id));
  // Until the rules are known both are offered; the server refuses what the committee does not allow.
  const umlaufAllowed = committee.data?.rules.circular_allowed ?? true;
  const [procedure, setProcedure] = useState<Procedure>(motion.event_id !== null ? 'sitzung' : 'umlauf');
  const [deadline, setDeadline] = useState(() => pickerValueOf(defaultDeadline()));
  const [errors, setErrors] = useState<{ procedure?: string; deadline?: string; general?: string }>({});
  const open = useOpenMotion(motion.id);
  const chosen = umlaufAllowed ? procedure : 'sitzung';

  const send = (body: { procedure: Procedure; deadline?: string }) => {
    setErrors({});
    // The toast comes from the hook: this form is gone once the vote runs.
    open.mutate(body, {
      onError: (failure) => {
        const fields = isApiError(failure) ? (failure.errors ?? {}) : {};
        setErrors({
          procedure: fields.procedure?.[0],
          deadline: fields.deadline?.[0],
          general: fields.procedure || fields.deadline ? undefined : errorMessage(failure, OPEN_FAILED),
        });
      },
    });
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen === 'sitzung') return send({ procedure: 'sitzung' });
    const problem = deadlineError(deadline);
    if (problem) {
      setErrors({ deadline: problem });
      return;
    }
    const iso = deadlineFromPicker(deadline)!;
    openConfirmDialog({
      title: 'Umlaufverfahren starten?',
      message: `Alle Stimmberechtigten des Gremiums „${motion.committee.name}“ erhalten eine E-Mail mit der Bitte, bis ${formatDateTime(iso)} Uhr abzustimmen. Wer heute stimmberechtigt ist, wird mit dem Start festgelegt.`,
      confirmLabel: 'Umlaufverfahren starten',
      danger: false,
      onConfirm: () => send({ procedure: 'umlauf', deadline: iso }),
    });
  };

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Abstimmung öffnen">
      <Stack gap="sm">
        <Radio.Group
          label="Verfahren"
          value={chosen}
          onChange={(value) => setProcedure(value as Procedure)}
          error={errors.procedure}
        >
          <Stack gap="xs" mt={6}>
            <Radio value="sitzung" label={PROCEDURE_LABELS.sitzung} disabled={open.isPending} />
            {umlaufAllowed ? (
              <Radio
                value="umlauf"
                label={`${PROCEDURE_LABELS.umlauf} (schriftlich, mit Frist)`}
                disabled={open.isPending}
              />
            ) : null}
          </Stack>
        </Radio.Group>
        {!umlaufAllowed ? (
          <Text size="sm" c="dimmed">
            Dieses Gremium fasst keine Beschlüsse im Umlaufverfahren.
          </Text>
        ) : null}
        {chosen === 'umlauf' ? (
          <GermanDates>
            <DateTimePicker
              label="Frist"
              description="Bis dahin können die Stimmberechtigten abstimmen oder widersprechen."
              placeholder="TT.MM.JJJJ hh:mm"
              valueFormat="DD.MM.YYYY HH:mm"
              withAsterisk
              value={deadline || null}
              onChange={(next) => {
                setDeadline(next ?? '');
                setErrors((current) => ({ ...current, deadline: undefined }));
              }}
              minDate={new Date()}
              error={errors.deadline}
              disabled={open.isPending}
              leftSection={<IconCalendarEvent size={18} aria-hidden />}
              submitButtonProps={{ 'aria-label': 'Frist übernehmen' }}
              timePickerProps={{ hoursInputLabel: 'Stunden', minutesInputLabel: 'Minuten' }}
              previousLabel="Vorheriger Monat"
              nextLabel="Nächster Monat"
              popoverProps={{ withinPortal: true }}
              maw={320}
            />
          </GermanDates>
        ) : (
          <Text size="sm" c="dimmed">
            Die Stimmberechtigten stimmen in der Sitzung ab: hier im Portal, per Handzeichen oder schriftlich
            vorab. Sie schließen die Abstimmung, wenn alle abgestimmt haben.
          </Text>
        )}
        {errors.general ? (
          <Alert color="red" variant="light" role="alert">
            {errors.general}
          </Alert>
        ) : null}
        <Group>
          <Button
            type="submit"
            leftSection={<IconPlayerPlay size={18} aria-hidden />}
            loading={open.isPending}
          >
            {chosen === 'umlauf' ? 'Umlaufverfahren starten' : 'Abstimmung öffnen'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
