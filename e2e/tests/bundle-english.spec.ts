import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'acorn';
import { full } from 'acorn-walk';
import { expect, test } from '@playwright/test';
import { REPO_ROOT } from './support/portal.ts';

/*
 * The portal speaks German. This reads every string in the built web bundle and fails on English
 * words or phrases that are not on the list below. Each entry on the list is library text that no
 * user sees: a programming-error message, a name that is not shown (an icon's, a key's), or a
 * default the portal replaces with German (the page tour checks the rendered pages for English).
 */

/** Words that, at the start of a short phrase, mark it as English UI text. */
const ENGLISH =
  /\b(no|not|records?|found|nothing|loading|close|search|clear|submit|cancel|previous|next|page|select|open|toggle|show|hide|remove|delete|upload|drag|drop|files?|here|error|required|please|invalid|items?|results?|more|less|back|today|yes|the|and|or|to|of|is|are|click|choose|enter|value|options?|date|time|month|year|day|week|menu|expand|collapse|sort|sorted|first|last|copy|dismiss|pick|reset|empty|data|too|many|larger|smaller|must|be)\b/i;
/** A phrase of letters and spaces (UI text), not an identifier, a CSS value or a URL. */
const PHRASE = /^([A-Z][a-z]+( [A-Za-z]+)*[.!?…]?|[a-z]+( [a-z]+)+[.!?]?)$/;

const ALLOWED = new Set([
  // Programming-error messages of React Router, TanStack Query, zod and Mantine: thrown only when
  // the code itself is wrong; the error page shows German text.
  'Accordion component was not found in the tree',
  'Tabs component was not found in the tree',
  'Async schemas not supported in object keys currently',
  'Cannot add the same private member more than once',
  'Custom types cannot be represented in JSON Schema',
  'Symbol keys cannot be represented in JSON Schema',
  'Transforms cannot be represented in JSON Schema',
  'Cannot handle redirect results in processLoaderData',
  'Combobox component was not found in tree',
  'Did not find corresponding fetcher result',
  'Drawer component was not found in tree',
  'Dropzone component was not found in tree',
  'Dynamic catch values are not supported in JSON Schema',
  'Error converting schema to JSON.',
  'Expected a Location header on the redirect Response',
  'Expected a result',
  'Expected enabled to be a boolean or a callback that returns a boolean',
  'External navigation is not allowed',
  'Grid component was not found in tree',
  'Integers must be within the safe integer range.',
  'Invalid redirect location',
  'List component was not found in tree',
  'Menu component was not found in the tree',
  'Modal component was not found in tree',
  'No lazy route function found',
  'No mutationFn found',
  'No result assigned in instrumentation chain.',
  'No result returned from dataStrategy for route',
  'No route found in manifest',
  'No value found for context',
  'Popover component was not found in the tree',
  'React Router caught the following error during render',
  'Sidecar medium not found',
  'Table component was not found in the tree',
  'Transition was aborted because of invalid state',
  'Unable to encode submission body',
  'Unable to preload CSS for',
  'Unexpected Application Error!',
  'View transition was skipped because document visibility state is hidden.',
  'You cannot call instrumented handlers more than once',
  'data is undefined',
  'takes an object of state variables to update or a function which returns an object of state variables.',
  'write to private field',
  // zod's English issue texts: every schema of the portal sets German messages (contracts).
  'Invalid',
  'Invalid URL format',
  'Invalid hostname',
  'Invalid input',
  'Invalid key in',
  'Invalid protocol',
  'Invalid value in',
  'No matching discriminator',
  'not found in enum',
  'to be',
  'to have',
  // React Router's status texts for its own error responses (the portal renders its 404 page).
  'Internal Server Error',
  'Method Not Allowed',
  'Not Found',
  'Unknown Server Error',
  // Names that are never shown: DOM event and media lists, keyboard keys, icon and calendar-level
  // names, date-library tokens, CSS media queries.
  'Clear',
  'Collapse',
  // Tabler's name of IconCopy (the recovery codes' and the secret's copy buttons say "Kopieren").
  'Copy',
  'Date',
  'Day',
  'Delete',
  'Enter',
  'Error',
  'File',
  'Files',
  'Invalid Date',
  'Menu',
  'Month',
  'Page',
  'Search',
  'Select',
  'Upload',
  'abort canplay canplaythrough durationchange emptied encrypted ended error loadeddata loadedmetadata loadstart pause play playing progress ratechange resize seeked seeking stalled suspend timeupdate volumechange waiting',
  'beforetoggle cancel close invalid load scroll scrollend toggle',
  'change click focusin focusout input keydown keyup selectionchange',
  'not all',
  // react-dropzone's rejection texts: the upload forms show their own German messages for size
  // and format (file-formats in contracts), never the library's.
  'File is larger than',
  'File is smaller than',
  'File type must be',
  'Too many files',
  'file upload',
  'one of',
  // mantine-datatable defaults, replaced by German props in components/sortable-table.tsx and the
  // audit tables (the page tour fails on any English text or label it renders).
  'Drag column',
  'Next page',
  'No records',
  'Not sorted',
  'Previous page',
  'Records per page',
  'Select all records',
  'Select record',
  'Sorted',
  'Toggle column',
  // @simplewebauthn/browser's error messages: lib/passkeys.ts shows a German text chosen by the
  // error's code or name, never the library's message.
  'Authentication was not completed',
  'Browser does not support WebAuthn autofill',
  'Discoverable credentials were required but no available authenticator supported it',
  'No available authenticator supported any of the specified pubKeyCredParams algorithms',
  'Registration was not completed',
  'The authenticator was previously registered',
  'The browser extension that intercepted this WebAuthn API call incorrectly implemented',
  'User verification was required but no available authenticator supported it',
  'User verification was required during automatic registration but it could not be performed',
  'is an invalid domain',
  // dnd-kit's default announcements; the agenda editor passes German ones (agenda-dnd.ts), and its
  // test hears them.
  'Draggable item',
  'Picked up draggable item',
  'is no longer over a droppable area.',
  // Mantine's PasswordInput default label; every password field passes a German one.
  'Toggle password visibility',
]);

function englishStrings(dir: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const name of readdirSync(dir).filter((file) => file.endsWith('.js'))) {
    const ast = parse(readFileSync(join(dir, name), 'utf8'), { ecmaVersion: 'latest', sourceType: 'module' });
    const check = (raw: string) => {
      const text = raw.trim();
      if (!PHRASE.test(text) || !ENGLISH.test(text) || /[äöüßÄÖÜ]/.test(text) || ALLOWED.has(text)) return;
      found.set(text, [...(found.get(text) ?? []), name]);
    };
    full(ast, (node) => {
      if (node.type === 'Literal' && typeof (node as { value: unknown }).value === 'string') {
        check((node as { value: string }).value);
      }
      if (node.type === 'TemplateElement')
        check((node as { value: { cooked?: string | null } }).value.cooked ?? '');
    });
  }
  return found;
}

test('the built web bundle holds no English UI text', () => {
  const found = englishStrings(join(REPO_ROOT, 'web', 'dist', 'assets'));
  const listed = [...found].map(([text, files]) => `${JSON.stringify(text)} in ${files.join(', ')}`);
  expect(listed, 'Englische Texte im Bundle (übersetzen oder mit Begründung in ALLOWED aufnehmen)').toEqual(
    [],
  );
});

test('the check finds English text', () => {
  // Guards the guard: a phrase as a component would write it is reported.
  expect(PHRASE.test('No records found') && ENGLISH.test('No records found')).toBe(true);
  expect(PHRASE.test('Keine Einträge') && ENGLISH.test('Keine Einträge')).toBe(false);
});
