import { describe, expect, it } from 'vitest';
import { forCount, listOfNames, plural } from './plural';

describe('plural', () => {
  it('uses the singular for one and the plural for every other count', () => {
    expect(plural(1, 'Person', 'Personen')).toBe('1 Person');
    expect(plural(0, 'Person', 'Personen')).toBe('0 Personen');
    expect(plural(2, 'Datei', 'Dateien')).toBe('2 Dateien');
    expect(plural(1250, 'Eintrag', 'Einträge')).toBe('1.250 Einträge');
  });

  it('picks the verb that fits the count', () => {
    expect(`${plural(1, 'Person', 'Personen')} ${forCount(1, 'sieht', 'sehen')}`).toBe('1 Person sieht');
    expect(`${plural(4, 'Person', 'Personen')} ${forCount(4, 'sieht', 'sehen')}`).toBe('4 Personen sehen');
  });

  it('lists names with a comma and "und" before the last', () => {
    expect(listOfNames(['Vertreter'])).toBe('Vertreter');
    expect(listOfNames(['Aufsichtsrat', 'Vertreter'])).toBe('Aufsichtsrat und Vertreter');
    expect(listOfNames(['A', 'B', 'C'])).toBe('A, B und C');
  });
});
