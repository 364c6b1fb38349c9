/**
 * German counts: "1 Person", "2 Personen", "0 Personen". Use it for every number shown next to a
 * noun, so that singular and plural are right everywhere.
 */
const count = new Intl.NumberFormat('de-DE');
const rules = new Intl.PluralRules('de-DE');

/** The word that fits the count: `forCount(1, 'sieht', 'sehen')` → "sieht". */
export function forCount(n: number, one: string, other: string): string {
  return rules.select(n) === 'one' ? one : other;
}

/** The count with its noun: `plural(3, 'Datei', 'Dateien')` → "3 Dateien" (thousands with a dot). */
export function plural(n: number, one: string, other: string): string {
  return `${count.format(n)} ${forCount(n, one, other)}`;
}

let names: Intl.ListFormat | undefined;

/** Names as a German sentence lists them: "Vertreter", "Aufsichtsrat und Vertreter", "A, B und C". */
export function listOfNames(items: readonly string[]): string {
  names ??= new Intl.ListFormat('de-DE', { style: 'long', type: 'conjunction' });
  return names.format(items);
}
