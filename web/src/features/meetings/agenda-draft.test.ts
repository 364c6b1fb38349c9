import { describe, expect, it } from 'vitest';
import { MEETING_MESSAGES } from '@gremienportal/contracts/meetings';
import { msg } from '@gremienportal/contracts/rules';
import * as ops from './agenda-draft';
import { makeAgenda } from './components/agenda-fixtures';

const titles = (draft: ops.Draft) =>
  draft.map((item) => [item.title, item.children.map((child) => child.title)] as const);
const keyOf = (draft: ops.Draft, title: string) =>
  draft.flatMap((item) => [item, ...item.children]).find((item) => item.title === title)!.key;

describe('the agenda draft', () => {
  const saved = () => ops.draftFromAgenda(makeAgenda());

  it('nests the sub-items under their main item and numbers them as the server does', () => {
    const draft = saved();
    expect(titles(draft)).toEqual([
      ['Begrüßung', []],
      ['Jahresabschluss 2025', ['Bericht der Kassenprüfung', 'Verwendung des Bilanzgewinns']],
      ['Verschiedenes', []],
    ]);
    expect([...ops.numbersOf(draft).values()]).toEqual(['1', '2', '2.1', '2.2', '3']);
    expect(draft[1]!.documents.map((document) => document.id)).toEqual([102]);
    expect(ops.numberLabel('2.1')).toBe('Unterpunkt 2.1');
    expect(ops.numberLabel('3')).toBe('Punkt 3');
  });

  it('moves items among their siblings, by one place or onto another, never beyond the ends', () => {
    const draft = saved();
    const first = keyOf(draft, 'Begrüßung');
    expect(ops.moveBy(draft, first, -1)).toBe(draft);
    expect(titles(ops.moveBy(draft, first, 1)).map(([title]) => title)).toEqual([
      'Jahresabschluss 2025',
      'Begrüßung',
      'Verschiedenes',
    ]);
    const sub = keyOf(draft, 'Verwendung des Bilanzgewinns');
    expect(titles(ops.moveBy(draft, sub, -1))[1]![1]).toEqual([
      'Verwendung des Bilanzgewinns',
      'Bericht der Kassenprüfung',
    ]);
    expect(titles(ops.moveOnto(draft, first, keyOf(draft, 'Verschiedenes'))).map(([t]) => t)).toEqual([
      'Jahresabschluss 2025',
      'Verschiedenes',
      'Begrüßung',
    ]);
    // A drop in another list changes nothing: sub-items stay with their main item.
    expect(ops.moveOnto(draft, sub, first)).toBe(draft);
  });

  it('makes a main item a sub-item of the one above and back, two levels at most', () => {
    const draft = saved();
    const last = keyOf(draft, 'Verschiedenes');
    expect(ops.canIndent(draft, keyOf(draft, 'Begrüßung'))).toBe(false);
    // An item with sub-items cannot become a sub-item itself.
    expect(ops.canIndent(ops.moveBy(draft, last, -1), keyOf(draft, 'Jahresabschluss 2025'))).toBe(false);
    const indented = ops.indent(draft, last);
    expect(titles(indented)).toEqual([
      ['Begrüßung', []],
      [
        'Jahresabschluss 2025',
        ['Bericht der Kassenprüfung', 'Verwendung des Bilanzgewinns', 'Verschiedenes'],
      ],
    ]);
    expect(ops.numbersOf(indented).get(last)).toBe('2.3');
    const outdented = ops.outdent(indented, keyOf(draft, 'Bericht der Kassenprüfung'));
    expect(titles(outdented)).toEqual([
      ['Begrüßung', []],
      ['Jahresabschluss 2025', ['Verwendung des Bilanzgewinns', 'Verschiedenes']],
      ['Bericht der Kassenprüfung', []],
    ]);
  });

  it('adds, changes and removes items and sub-items', () => {
    let draft = ops.addItem([], { ...ops.emptyItem(), title: 'Eins' });
    const main = draft[0]!.key;
    const sub = ops.emptyItem();
    draft = ops.addItem(draft, sub, main);
    draft = ops.updateItem(draft, sub.key, { title: 'Eins a', presenter: 'Frau Rat' });
    expect(draft[0]!.children).toEqual([expect.objectContaining({ title: 'Eins a', presenter: 'Frau Rat' })]);
    expect(ops.removeItem(draft, sub.key)[0]!.children).toEqual([]);
    expect(ops.removeItem(draft, main)).toEqual([]);
  });

  it('builds the body of the PUT: the whole ordered list, sub-items without children of their own', () => {
    expect(ops.toBody(saved())).toEqual({
      items: [
        {
          title: 'Begrüßung',
          description: '',
          presenter: 'Dr. Maria Vorsitz',
          file_ids: [101],
          children: [],
        },
        {
          title: 'Jahresabschluss 2025',
          description: 'Vorlage und Aussprache.\nBeschluss.',
          presenter: 'Vorstand',
          file_ids: [102],
          children: [
            { title: 'Bericht der Kassenprüfung', description: '', presenter: '', file_ids: [104] },
            { title: 'Verwendung des Bilanzgewinns', description: '', presenter: '', file_ids: [] },
          ],
        },
        { title: 'Verschiedenes', description: '', presenter: '', file_ids: [], children: [] },
      ],
    });
    expect(ops.documentIdsOf(saved())).toEqual([101, 102, 104]);
  });

  it("checks with the contract's German messages and puts them at the item and field", () => {
    const draft = ops.updateItem(saved(), keyOf(saved(), 'Verwendung des Bilanzgewinns'), { title: '  ' });
    const errors = ops.validateDraft(draft);
    expect(errors).toEqual({
      items: { [keyOf(saved(), 'Verwendung des Bilanzgewinns')]: { title: msg.required('Titel') } },
      general: [],
    });
    expect(ops.validateDraft(saved())).toBe(ops.NO_ERRORS);
  });

  it("places a 422's paths and keeps what belongs to no field for the general message", () => {
    const draft = saved();
    const errors = ops.errorsByPath(draft, [
      ['items.1.children.0.file_ids', MEETING_MESSAGES.unknownFile],
      ['items.0.description', 'Zu lang.'],
      ['items', MEETING_MESSAGES.agendaTooLong],
      ['items.9.title', 'Gibt es nicht.'],
    ]);
    expect(errors.items).toEqual({
      [keyOf(draft, 'Bericht der Kassenprüfung')]: { documents: MEETING_MESSAGES.unknownFile },
      [keyOf(draft, 'Begrüßung')]: { description: 'Zu lang.' },
    });
    expect(errors.general).toEqual([MEETING_MESSAGES.agendaTooLong, 'Gibt es nicht.']);
    expect(ops.hasErrors(errors)).toBe(true);
  });
});
