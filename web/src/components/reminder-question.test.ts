import { describe, expect, it } from 'vitest';
import { reminderQuestion } from './reminder-question';

describe('reminderQuestion', () => {
  it('speaks of one person in the singular', () => {
    expect(reminderQuestion(1, 'Antwort', 'Zu- oder Absage')).toBe(
      '1 Person ohne Antwort erhält eine E-Mail mit der Bitte um Zu- oder Absage.',
    );
  });

  it('speaks of several people in the plural', () => {
    expect(reminderQuestion(3, 'Bestätigung', 'Kenntnisnahme')).toBe(
      '3 Personen ohne Bestätigung erhalten eine E-Mail mit der Bitte um Kenntnisnahme.',
    );
    expect(reminderQuestion(1250, 'Antwort', 'Zu- oder Absage')).toBe(
      '1.250 Personen ohne Antwort erhalten eine E-Mail mit der Bitte um Zu- oder Absage.',
    );
  });
});
