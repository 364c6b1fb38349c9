import type { ReactNode } from 'react';
import { DatesProvider } from '@mantine/dates';
import 'dayjs/locale/de';

/**
 * German calendars (month names, Monday first) around a date input. Here rather than in the
 * signed-in layout: dayjs and the provider then load with the two inputs that use them, not with
 * every signed-in page's first load (decision 184).
 */
export function GermanDates({ children }: { children: ReactNode }) {
  return <DatesProvider settings={{ locale: 'de', firstDayOfWeek: 1 }}>{children}</DatesProvider>;
}
