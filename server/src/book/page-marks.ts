import { degrees, drawRectangle, grayscale, PDFName, rgb, type PDFPage, type PDFRef } from 'pdf-lib';
import type { Fonts } from './text-layout.ts';
import { truncate } from './text-layout.ts';

/*
 * What the book writes onto every page, also onto the pages of inserted documents: the footer
 * naming the reader, and on a document's first page the divider naming its agenda item. Inserted
 * pages come in any size, with a crop box anywhere and rotated by /Rotate; marks are placed in the
 * page as it is shown.
 */

/** The visible page as shown: its size and where a point of it lies in the page's own space. */
interface Frame {
  width: number;
  height: number;
  /** Page coordinates of the point (x, y) measured from the shown page's lower left corner. */
  at(x: number, y: number): { x: number; y: number };
  rotate: ReturnType<typeof degrees>;
}

function frameOf(page: PDFPage): Frame {
  const box = page.getCropBox();
  const x0 = box.x;
  const y0 = box.y;
  const x1 = box.x + box.width;
  const y1 = box.y + box.height;
  const turn = (((Math.round(page.getRotation().angle / 90) * 90) % 360) + 360) % 360;
  switch (turn) {
    case 90:
      return {
        width: box.height,
        height: box.width,
        at: (x, y) => ({ x: x1 - y, y: y0 + x }),
        rotate: degrees(90),
      };
    case 180:
      return {
        width: box.width,
        height: box.height,
        at: (x, y) => ({ x: x1 - x, y: y1 - y }),
        rotate: degrees(180),
      };
    case 270:
      return {
        width: box.height,
        height: box.width,
        at: (x, y) => ({ x: x0 + y, y: y1 - x }),
        rotate: degrees(270),
      };
    default:
      return {
        width: box.width,
        height: box.height,
        at: (x, y) => ({ x: x0 + x, y: y0 + y }),
        rotate: degrees(0),
      };
  }
}

const WHITE = rgb(1, 1, 1);
const FOOTER_SIZE = 7;
const FOOTER_GRAY = grayscale(0.3);

const SHADE = PDFName.of('GPShade');
const shades = new WeakMap<object, PDFRef>();

/**
 * A white, slightly translucent box under a mark, so it stays legible on any page. All boxes of a
 * book share one graphics state (pdf-lib's `opacity` makes a new one per call, hundreds per book).
 */
function backdrop(page: PDFPage, frame: Frame, x: number, y: number, width: number, height: number) {
  const { context } = page.doc;
  let shade = shades.get(context);
  if (!shade) {
    shade = context.register(context.obj({ Type: 'ExtGState', ca: 0.85 }));
    shades.set(context, shade);
  }
  page.node.setExtGState(SHADE, shade);
  page.pushOperators(
    ...drawRectangle({
      ...frame.at(x, y),
      width,
      height,
      rotate: frame.rotate,
      xSkew: degrees(0),
      ySkew: degrees(0),
      borderWidth: 0,
      color: WHITE,
      borderColor: undefined,
      graphicsState: SHADE,
    }),
  );
}

/** "Vertraulich – Name – Datum · Seite 3 von 42", small and grey, centred at the bottom. */
export function drawFooter(page: PDFPage, fonts: Fonts, text: string): void {
  const frame = frameOf(page);
  const line = truncate(text, fonts.regular, FOOTER_SIZE, Math.max(40, frame.width - 32));
  const width = fonts.regular.widthOfTextAtSize(line, FOOTER_SIZE);
  const x = (frame.width - width) / 2;
  backdrop(page, frame, x - 4, 5, width + 8, FOOTER_SIZE + 6);
  page.drawText(line, {
    ...frame.at(x, 9),
    size: FOOTER_SIZE,
    font: fonts.regular,
    color: FOOTER_GRAY,
    rotate: frame.rotate,
  });
}

const DIVIDER_SIZE = 8.5;
const DIVIDER_BAND = 18;

/**
 * The divider on a document's first page: a band across the top with "TOP 2.1 – Titel" in bold
 * and the document's title after it, cut to the page's width.
 */
export function drawDivider(page: PDFPage, fonts: Fonts, label: string, detail: string): void {
  const frame = frameOf(page);
  const margin = Math.min(24, frame.width / 10);
  const room = Math.max(20, frame.width - 2 * margin);
  const top = frame.height - DIVIDER_BAND;
  backdrop(page, frame, 0, top, frame.width, DIVIDER_BAND);
  page.drawLine({
    start: frame.at(0, top),
    end: frame.at(frame.width, top),
    thickness: 0.6,
    color: grayscale(0.45),
  });
  const bold = truncate(label, fonts.bold, DIVIDER_SIZE, room);
  const boldWidth = fonts.bold.widthOfTextAtSize(bold, DIVIDER_SIZE);
  const y = top + (DIVIDER_BAND - DIVIDER_SIZE) / 2 + 1;
  page.drawText(bold, { ...frame.at(margin, y), size: DIVIDER_SIZE, font: fonts.bold, rotate: frame.rotate });
  const rest = room - boldWidth - 12;
  if (detail === '' || rest < 30) return;
  page.drawText(truncate(`· ${detail}`, fonts.regular, DIVIDER_SIZE, rest), {
    ...frame.at(margin + boldWidth + 6, y),
    size: DIVIDER_SIZE,
    font: fonts.regular,
    color: grayscale(0.25),
    rotate: frame.rotate,
  });
}
