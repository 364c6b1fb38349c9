import { readFileSync, readdirSync } from 'node:fs';

/**
 * The processes `pid` started, and theirs (Linux): the portal's helper processes for argon2, the
 * Sitzungsmappe and text extraction (decision 144).
 */
export function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  const found: number[] = [];
  for (let next = [pid]; next.length > 0;) {
    next = next.flatMap((parent) => children.get(parent) ?? []);
    found.push(...next);
  }
  return found;
}
