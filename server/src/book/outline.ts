import { PDFHexString, PDFName, type PDFDict, type PDFDocument, type PDFRef } from 'pdf-lib';

/** One bookmark: its title (any characters; PDF text strings are UTF-16), its page, its children. */
export interface Bookmark {
  title: string;
  page: PDFRef;
  children: Bookmark[];
}

const MAX_TITLE = 200;

/** Control characters out, one line, not endless: what a viewer's bookmark pane can show. */
const bookmarkTitle = (title: string) =>
  // eslint-disable-next-line no-control-regex
  [...title.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim()].slice(0, MAX_TITLE).join('');

/**
 * Writes the document outline (PDF 32000-1, 12.3.3) and opens the book with it shown. Every level
 * is open, so `Count` is the number of all bookmarks below.
 */
export function addOutline(doc: PDFDocument, bookmarks: readonly Bookmark[]): void {
  if (bookmarks.length === 0) return;
  const { context } = doc;
  const root = context.nextRef();

  const level = (nodes: readonly Bookmark[], parent: PDFRef) => {
    const refs = nodes.map(() => context.nextRef());
    let count = nodes.length;
    nodes.forEach((node, index) => {
      const dict: PDFDict = context.obj({
        Title: PDFHexString.fromText(bookmarkTitle(node.title)),
        Parent: parent,
        Dest: [node.page, 'Fit'],
      });
      if (index > 0) dict.set(PDFName.of('Prev'), refs[index - 1]!);
      if (index < nodes.length - 1) dict.set(PDFName.of('Next'), refs[index + 1]!);
      if (node.children.length > 0) {
        const below = level(node.children, refs[index]!);
        dict.set(PDFName.of('First'), below.first);
        dict.set(PDFName.of('Last'), below.last);
        dict.set(PDFName.of('Count'), context.obj(below.count));
        count += below.count;
      }
      context.assign(refs[index]!, dict);
    });
    return { first: refs[0]!, last: refs.at(-1)!, count };
  };

  const top = level(bookmarks, root);
  context.assign(root, context.obj({ Type: 'Outlines', First: top.first, Last: top.last, Count: top.count }));
  doc.catalog.set(PDFName.of('Outlines'), root);
  doc.catalog.set(PDFName.of('PageMode'), PDFName.of('UseOutlines'));
}
