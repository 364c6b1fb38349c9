import { expect } from 'vitest';

/*
 * A small, independent RFC 5545 reader for the tests of the iCalendar writer, the cancellations
 * and the calendar feed: checks the physical format, unfolds, parses properties and components,
 * and resolves TZID times through the file's own VTIMEZONE rules.
 */

export interface Property {
  name: string;
  params: Record<string, string>;
  value: string;
}
export interface Component {
  name: string;
  props: Property[];
  components: Component[];
}

export function readCalendar(text: string): Component {
  const bytes = Buffer.from(text, 'utf8');
  expect(text.endsWith('\r\n'), 'ends with CRLF').toBe(true);
  expect(/\r(?!\n)|(?<!\r)\n/.test(text), 'only CRLF line ends').toBe(false);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const physical: string[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length - 1; i += 1) {
    if (bytes[i] === 0x0d && bytes[i + 1] === 0x0a) {
      const line = bytes.subarray(start, i);
      expect(line.length, 'at most 75 octets per line').toBeLessThanOrEqual(75);
      // Throws when a fold split a UTF-8 sequence.
      physical.push(decoder.decode(line));
      start = i + 2;
    }
  }
  const logical: string[] = [];
  for (const line of physical) {
    if (line.startsWith(' ') || line.startsWith('\t')) logical[logical.length - 1] += line.slice(1);
    else logical.push(line);
  }
  const root: Component = { name: '', props: [], components: [] };
  const stack = [root];
  for (const line of logical) {
    const match = /^([A-Za-z0-9-]+)((?:;[A-Za-z0-9-]+=(?:"[^"]*"|[^;:,"]*))*):(.*)$/s.exec(line);
    expect(match, `content line: ${line}`).not.toBeNull();
    const [, name, rawParams, value] = match!;
    const params: Record<string, string> = {};
    for (const param of rawParams!.split(';').slice(1)) {
      const eq = param.indexOf('=');
      params[param.slice(0, eq).toUpperCase()] = param.slice(eq + 1).replace(/^"|"$/g, '');
    }
    const upper = name!.toUpperCase();
    if (upper === 'BEGIN') {
      const component: Component = { name: value!, props: [], components: [] };
      stack.at(-1)!.components.push(component);
      stack.push(component);
    } else if (upper === 'END') {
      expect(stack.pop()!.name).toBe(value);
    } else {
      stack.at(-1)!.props.push({ name: upper, params, value: value! });
    }
  }
  expect(stack).toHaveLength(1);
  expect(root.components).toHaveLength(1);
  return root.components[0]!;
}

export const prop = (component: Component, name: string) => component.props.find((p) => p.name === name);
export const value = (component: Component, name: string) => prop(component, name)?.value;
export const child = (component: Component, name: string) =>
  component.components.find((c) => c.name === name)!;
export const unescapeText = (text: string) =>
  text.replace(/\\([\\;,nN])/g, (_m, ch: string) => (ch === 'n' || ch === 'N' ? '\n' : ch));

const LOCAL = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z?)$/;
function localMs(text: string): { ms: number; utc: boolean } {
  const m = LOCAL.exec(text);
  expect(m, `DATE-TIME ${text}`).not.toBeNull();
  const [, y, mo, d, h, mi, s, z] = m!;
  return { ms: Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +s!), utc: z === 'Z' };
}
const offsetMs = (text: string) => {
  const m = /^([+-])(\d{2})(\d{2})$/.exec(text)!;
  return (m[1] === '-' ? -1 : 1) * (+m[2]! * 60 + +m[3]!) * 60_000;
};

/** The instant of a transition rule (`FREQ=YEARLY;BYMONTH=m;BYDAY=-1SU`) in a given year. */
function transition(rule: Component, year: number): number {
  const rrule = value(rule, 'RRULE')!;
  const parts = Object.fromEntries(rrule.split(';').map((p) => p.split('=') as [string, string]));
  expect(parts.FREQ).toBe('YEARLY');
  expect(parts.BYDAY).toBe('-1SU');
  const start = localMs(value(rule, 'DTSTART')!);
  expect(new Date(start.ms).getUTCFullYear()).toBeLessThanOrEqual(year);
  const month = Number(parts.BYMONTH) - 1;
  const lastDay = new Date(Date.UTC(year, month + 1, 0));
  const lastSunday = lastDay.getUTCDate() - lastDay.getUTCDay();
  const wall = new Date(start.ms);
  const local = Date.UTC(year, month, lastSunday, wall.getUTCHours(), wall.getUTCMinutes());
  return local - offsetMs(value(rule, 'TZOFFSETFROM')!);
}

/** DTSTART/DTEND as an instant: UTC as written, or local time through the named VTIMEZONE. */
export function instantOf(calendar: Component, p: Property): string {
  const { ms, utc } = localMs(p.value);
  if (utc) {
    expect(p.params.TZID).toBeUndefined();
    return new Date(ms).toISOString();
  }
  const zone = calendar.components.find((c) => c.name === 'VTIMEZONE' && value(c, 'TZID') === p.params.TZID);
  expect(zone, `VTIMEZONE ${p.params.TZID}`).toBeDefined();
  const daylight = child(zone!, 'DAYLIGHT');
  const standard = child(zone!, 'STANDARD');
  const year = new Date(ms).getUTCFullYear();
  const summerFrom = transition(daylight, year);
  const summerUntil = transition(standard, year);
  const candidates = [daylight, standard]
    .map((rule) => {
      const offset = offsetMs(value(rule, 'TZOFFSETTO')!);
      const instant = ms - offset;
      const inSummer = instant >= summerFrom && instant < summerUntil;
      return (rule === daylight) === inSummer ? instant : undefined;
    })
    .filter((instant): instant is number => instant !== undefined)
    .sort((a, b) => a - b);
  expect(candidates.length, `local time ${p.value} exists`).toBeGreaterThan(0);
  // RFC 5545 3.3.5: a local time that occurs twice means its first occurrence.
  return new Date(candidates[0]!).toISOString();
}

/** Every subcomponent of that name (the VEVENTs of a feed). */
export const childrenOf = (component: Component, name: string) =>
  component.components.filter((c) => c.name === name);
