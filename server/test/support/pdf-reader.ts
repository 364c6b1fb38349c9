import { extractText, getDocumentProxy } from 'unpdf';

/** A PDF as a reader sees it, read with pdf.js (unpdf): text per page, bookmarks, links. */
export interface ReadPdf {
  /** Text of each page, in order. */
  pages: string[];
  /** The outline: title, 0-based target page, the bookmarks below. */
  outline: Bookmark[];
  /** Link annotations: on which page (0-based) and to which page. */
  links: { page: number; target: number }[];
}

export interface Bookmark {
  title: string;
  page: number;
  children: Bookmark[];
}

type PdfProxy = Awaited<ReturnType<typeof getDocumentProxy>>;

async function pageOf(pdf: PdfProxy, dest: unknown): Promise<number> {
  const explicit = typeof dest === 'string' ? await pdf.getDestination(dest) : (dest as unknown[] | null);
  if (!explicit) return -1;
  return pdf.getPageIndex(explicit[0] as Parameters<PdfProxy['getPageIndex']>[0]);
}

export async function readPdf(bytes: Uint8Array): Promise<ReadPdf> {
  // pdf.js takes the buffer over; the caller keeps its own.
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const links: ReadPdf['links'] = [];
  for (let page = 0; page < pdf.numPages; page += 1) {
    for (const annotation of await (await pdf.getPage(page + 1)).getAnnotations()) {
      if (annotation.subtype === 'Link' && annotation.dest) {
        links.push({ page, target: await pageOf(pdf, annotation.dest) });
      }
    }
  }
  type Node = { title: string; dest: unknown; items: Node[] };
  const walk = async (nodes: Node[]): Promise<Bookmark[]> =>
    Promise.all(
      nodes.map(async (node) => ({
        title: node.title,
        page: await pageOf(pdf, node.dest),
        children: await walk(node.items),
      })),
    );
  const outline = await walk(((await pdf.getOutline()) ?? []) as Node[]);
  const { text } = await extractText(pdf);
  return { pages: text, outline, links };
}
