import { germanDate, MEMBER_FUNCTION_LABELS, type MemberFunction } from '@gremienportal/contracts/committees';
import { composeMail } from '../../mail/compose.ts';
import type { OutgoingMail } from '../../mail/outbox.ts';

export interface MembershipMailFacts {
  user: { title: string; lastname: string; email: string };
  committee: { id: number; name: string };
  function: MemberFunction;
  rank: number | null;
  from: string;
  until: string;
  termTitle: string;
}

const functionText = (facts: MembershipMailFacts) =>
  facts.function === 'ersatzmitglied' && facts.rank !== null
    ? `${MEMBER_FUNCTION_LABELS.ersatzmitglied} (Rang ${facts.rank})`
    : MEMBER_FUNCTION_LABELS[facts.function];

const factRows = (facts: MembershipMailFacts) =>
  [
    ['Gremium', facts.committee.name],
    ['Funktion', functionText(facts)],
    ['Amtsperiode', facts.termTitle],
    ['Von', germanDate(facts.from)],
    ['Bis', germanDate(facts.until)],
  ] as const;

/** Sent when a membership takes effect: by the midnight run, or at once when an admin's entry starts it. */
export function membershipStartedMail(
  facts: MembershipMailFacts,
  today: string,
  publicUrl: string,
): OutgoingMail {
  const begins =
    facts.from >= today
      ? `beginnt am ${germanDate(facts.from)}`
      : `hat am ${germanDate(facts.from)} begonnen`;
  return composeMail({
    to: facts.user.email,
    subject: `Ihre Mitgliedschaft im Gremium „${facts.committee.name}“ ${begins}`,
    recipient: facts.user,
    blocks: [
      {
        kind: 'paragraph',
        lines: [
          `Ihre Mitgliedschaft im Gremium „${facts.committee.name}“ ${begins}.`,
          'Im Gremienportal finden Sie ab jetzt die Unterlagen und Sitzungen des Gremiums.',
        ],
      },
      { kind: 'facts', rows: factRows(facts) },
      { kind: 'action', label: 'Gremium öffnen', url: `${publicUrl}/gremien/${facts.committee.id}` },
    ],
  });
}

/** Sent when a membership has ended: the person no longer sees the committee's papers. */
export function membershipEndedMail(
  facts: MembershipMailFacts,
  today: string,
  publicUrl: string,
): OutgoingMail {
  const ends =
    facts.until >= today
      ? `endet am ${germanDate(facts.until)}`
      : `hat am ${germanDate(facts.until)} geendet`;
  return composeMail({
    to: facts.user.email,
    subject: `Ihre Mitgliedschaft im Gremium „${facts.committee.name}“ ${ends}`,
    recipient: facts.user,
    blocks: [
      {
        kind: 'paragraph',
        lines: [
          `Ihre Mitgliedschaft im Gremium „${facts.committee.name}“ ${ends}.`,
          'Die Unterlagen des Gremiums sehen Sie danach nur noch, soweit Sie sie über eine andere Rolle sehen dürfen.',
          'Vielen Dank für Ihre Mitarbeit.',
        ],
      },
      { kind: 'facts', rows: factRows(facts) },
      { kind: 'action', label: 'Zum Gremienportal', url: `${publicUrl}/gremien` },
    ],
  });
}
