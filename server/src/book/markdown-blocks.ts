import markdownIt, { type Token } from 'markdown-it';

/*
 * The Markdown of a Niederschrift's section (decision 193) as blocks for the PDF: headings (# to
 * ###), paragraphs, bullet and numbered lists, bold and italic. markdown-it parses it, so the PDF
 * reads a text as CommonMark and the web's preview (markdown-it as well) do; only those rules are
 * switched on. Everything else stays the characters that were typed: HTML tags, links, code,
 * quotes, rules, tables, "#### " and deeper headings are text, never interpreted.
 */

/** Text in one style; "\n" inside is a line break the writer made (two spaces or "\" at a line's end). */
export interface Span {
  text: string;
  bold: boolean;
  italic: boolean;
}

export type MarkdownBlock =
  | { kind: 'heading'; level: 1 | 2 | 3; spans: Span[] }
  | {
      kind: 'paragraph';
      spans: Span[];
      /** How deep in lists (0: not in a list). */
      depth: number;
      /** "•" or "3." on an item's first paragraph, else null. */
      marker: string | null;
    };

/**
 * Block nesting markdown-it allows. Beyond it markdown-it drops the rest of the text without a
 * word; a text that deep is shown as typed instead (see `markdownBlocks`).
 */
const MAX_NESTING = 40;

// The 'zero' preset knows paragraphs and text only (no HTML, no links, no code, no entities of
// its own); headings, lists, emphasis, line breaks, backslash escapes and entities are added.
const parser = markdownIt('zero', { maxNesting: MAX_NESTING }).enable([
  'heading',
  'list',
  'emphasis',
  'newline',
  'escape',
  'entity',
]);

function spansOf(inline: Token | undefined, force: Partial<Span> = {}): Span[] {
  const spans: Span[] = [];
  let bold = 0;
  let italic = 0;
  const push = (text: string) => {
    if (text === '') return;
    const style = { bold: force.bold ?? bold > 0, italic: force.italic ?? italic > 0 };
    const last = spans.at(-1);
    if (last && last.bold === style.bold && last.italic === style.italic) last.text += text;
    else spans.push({ text, ...style });
  };
  for (const child of inline?.children ?? []) {
    if (child.type === 'strong_open') bold += 1;
    else if (child.type === 'strong_close') bold -= 1;
    else if (child.type === 'em_open') italic += 1;
    else if (child.type === 'em_close') italic -= 1;
    else if (child.type === 'softbreak') push(' ');
    else if (child.type === 'hardbreak') push('\n');
    else push(child.content); // text, and any other token as the characters it stands for
  }
  return spans;
}

const plain = (text: string): Span[] => [{ text, bold: false, italic: false }];

/** The text as typed: its paragraphs, each line of them on a line of its own. */
function literalBlocks(source: string): MarkdownBlock[] {
  return source
    .split(/\r?\n[ \t]*\r?\n/)
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) => ({ kind: 'paragraph', spans: plain(paragraph), depth: 0, marker: null }));
}

export function markdownBlocks(source: string): MarkdownBlock[] {
  const tokens = parser.parse(source, {});
  if (tokens.some((token) => token.level >= MAX_NESTING - 2)) return literalBlocks(source);
  const blocks: MarkdownBlock[] = [];
  const lists: { next: number | null }[] = [];
  let marker: string | null = null;
  const paragraph = (spans: Span[]) => {
    blocks.push({ kind: 'paragraph', spans, depth: lists.length, marker });
    marker = null;
  };
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    switch (token.type) {
      case 'bullet_list_open':
        lists.push({ next: null });
        break;
      case 'ordered_list_open':
        // Numbered as a browser numbers the preview's <ol start>: on from the first number.
        lists.push({ next: Number(token.attrGet('start') ?? 1) });
        break;
      case 'bullet_list_close':
      case 'ordered_list_close':
        lists.pop();
        break;
      case 'list_item_open': {
        const list = lists.at(-1)!;
        marker = list.next === null ? '•' : `${list.next}.`;
        if (list.next !== null) list.next += 1;
        break;
      }
      case 'list_item_close':
        if (marker !== null) paragraph([]); // an empty item still shows its bullet or number
        break;
      case 'heading_open': {
        const level = Number(token.tag.slice(1));
        const inline = tokens[index + 1];
        if (level <= 3 && lists.length === 0) {
          blocks.push({ kind: 'heading', level: level as 1 | 2 | 3, spans: spansOf(inline, { bold: true }) });
        } else if (level <= 3) {
          paragraph(spansOf(inline, { bold: true }));
        } else {
          paragraph([...plain(`${token.markup} `), ...spansOf(inline)]);
        }
        index += 2;
        break;
      }
      case 'paragraph_open':
        paragraph(spansOf(tokens[index + 1]));
        index += 2;
        break;
      case 'inline':
        paragraph(spansOf(token));
        break;
      default:
        if (token.content !== '') paragraph(plain(token.content));
    }
  }
  return blocks;
}
