import { useEffect, type ReactNode } from 'react';
import { Checkbox, List, Paper, Stack, Text } from '@mantine/core';
import { parseEventTime } from '@gremienportal/contracts/events';
import { factChanges, type EventFactsState } from '@gremienportal/contracts/meeting-notices';

/** The facts as the form holds them; times as typed (Berlin wall clock). */
export interface FormFacts {
  title: string;
  start: string;
  end: string;
  location: string;
  description: string;
}

const asFacts = (values: FormFacts): EventFactsState | null => {
  const start = parseEventTime(values.start);
  const end = parseEventTime(values.end);
  if (!start || !end) return null;
  return {
    title: values.title.trim(),
    start,
    end,
    location: values.location.trim(),
    description: values.description.trim(),
  };
};

/** What a notice would tell, as the server words it; nothing while a time is unreadable. */
export function noticeLines(before: FormFacts, now: FormFacts, newFile: boolean): string[] {
  const [was, is] = [asFacts(before), asFacts(now)];
  if (!was || !is) return [];
  return [...factChanges(was, is), ...(newFile ? ['Eine neue Informationsdatei ist angehängt.'] : [])];
}

interface ChangeNoticeFieldsProps {
  lines: readonly string[];
  notify: boolean;
  onNotifyChange: (notify: boolean) => void;
  /** "Benachrichtigung an", shown while the notice is chosen. */
  children: ReactNode;
  disabled: boolean;
}

/**
 * "Mitglieder benachrichtigen" (decision 181) on the edit page: offered once the title, a time,
 * the place, the description or the file changed, with what the mail will say; the chosen roles
 * (all of the event's by default) get it with the updated calendar entry.
 */
export function ChangeNoticeFields({
  lines,
  notify,
  onNotifyChange,
  children,
  disabled,
}: ChangeNoticeFieldsProps) {
  const changed = lines.length > 0;
  // A change undone takes the notice back: nothing is mailed about nothing.
  useEffect(() => {
    if (!changed && notify) onNotifyChange(false);
  }, [changed, notify, onNotifyChange]);
  if (!changed) return null;
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Checkbox
          label="Mitglieder benachrichtigen"
          description="Eine E-Mail mit diesen Änderungen und dem geänderten Kalendereintrag"
          checked={notify}
          disabled={disabled}
          onChange={(event) => onNotifyChange(event.currentTarget.checked)}
        />
        <div>
          <Text size="sm" fw={500}>
            Was sich ändert
          </Text>
          <List size="sm" spacing={2}>
            {lines.map((line) => (
              <List.Item key={line}>{line}</List.Item>
            ))}
          </List>
        </div>
        {notify ? children : null}
      </Stack>
    </Paper>
  );
}
