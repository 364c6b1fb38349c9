import {
  IconCalendarEvent,
  IconFile,
  IconFileCode,
  IconFileSpreadsheet,
  IconFileText,
  IconFileTypeCsv,
  IconFileTypeDoc,
  IconFileTypeDocx,
  IconFileTypeHtml,
  IconFileTypePdf,
  IconFileTypePpt,
  IconFileTypeTxt,
  IconFileTypeXls,
  IconFileTypeXml,
  IconFileZip,
  IconFolder,
  IconMail,
  IconMovie,
  IconMusic,
  IconPhoto,
  IconPresentation,
  type TablerIcon,
} from '@tabler/icons-react';

interface FileKind {
  icon: TablerIcon;
  /** A Mantine colour, so the kinds can be told apart at a glance (the label says it too). */
  color: string;
  /** "PDF-Dokument", "Word-Dokument", … for the type column and screen readers. */
  label: string;
}

const kind = (icon: TablerIcon, color: string, label: string): FileKind => ({ icon, color, label });

const PDF = kind(IconFileTypePdf, 'red.8', 'PDF-Dokument');
const WORD = kind(IconFileTypeDocx, 'blue.8', 'Word-Dokument');
const TEXT_DOCUMENT = kind(IconFileText, 'blue.8', 'Textdokument');
const SPREADSHEET = kind(IconFileSpreadsheet, 'green.9', 'Tabelle');
const PRESENTATION = kind(IconPresentation, 'orange.9', 'Präsentation');
const IMAGE = kind(IconPhoto, 'grape.8', 'Bild');
const VIDEO = kind(IconMovie, 'violet.8', 'Video');
const AUDIO = kind(IconMusic, 'pink.8', 'Audio');
const ARCHIVE = kind(IconFileZip, 'yellow.9', 'Archiv');

/** About 30 known extensions (product.md P3); anything else gets the default icon. */
const KINDS: Record<string, FileKind> = {
  pdf: PDF,
  doc: kind(IconFileTypeDoc, 'blue.8', 'Word-Dokument'),
  docx: WORD,
  odt: TEXT_DOCUMENT,
  rtf: TEXT_DOCUMENT,
  txt: kind(IconFileTypeTxt, 'gray.8', 'Textdatei'),
  md: kind(IconFileTypeTxt, 'gray.8', 'Textdatei'),
  xls: kind(IconFileTypeXls, 'green.9', 'Excel-Tabelle'),
  xlsx: kind(IconFileTypeXls, 'green.9', 'Excel-Tabelle'),
  ods: SPREADSHEET,
  csv: kind(IconFileTypeCsv, 'green.9', 'CSV-Tabelle'),
  ppt: kind(IconFileTypePpt, 'orange.9', 'PowerPoint-Präsentation'),
  pptx: kind(IconFileTypePpt, 'orange.9', 'PowerPoint-Präsentation'),
  odp: PRESENTATION,
  png: IMAGE,
  jpg: IMAGE,
  jpeg: IMAGE,
  gif: IMAGE,
  bmp: IMAGE,
  webp: IMAGE,
  svg: IMAGE,
  ico: IMAGE,
  tif: IMAGE,
  tiff: IMAGE,
  heic: IMAGE,
  mp4: VIDEO,
  mov: VIDEO,
  avi: VIDEO,
  mkv: VIDEO,
  webm: VIDEO,
  mp3: AUDIO,
  wav: AUDIO,
  m4a: AUDIO,
  ogg: AUDIO,
  zip: ARCHIVE,
  rar: ARCHIVE,
  '7z': ARCHIVE,
  gz: ARCHIVE,
  tar: ARCHIVE,
  html: kind(IconFileTypeHtml, 'gray.8', 'Webseite'),
  htm: kind(IconFileTypeHtml, 'gray.8', 'Webseite'),
  xml: kind(IconFileTypeXml, 'gray.8', 'XML-Datei'),
  json: kind(IconFileCode, 'gray.8', 'JSON-Datei'),
  eml: kind(IconMail, 'cyan.9', 'E-Mail'),
  msg: kind(IconMail, 'cyan.9', 'E-Mail'),
  ics: kind(IconCalendarEvent, 'teal.9', 'Kalendereintrag'),
};

const FOLDER = kind(IconFolder, 'yellow.8', 'Ordner');
const DEFAULT_KIND = kind(IconFile, 'gray.7', 'Datei');

/** What an extension (or "folder") looks like and is called. */
export function fileKindOf(format: string): FileKind {
  const key = format.trim().toLowerCase().replace(/^\./, '');
  if (key === 'folder') return FOLDER;
  return KINDS[key] ?? DEFAULT_KIND;
}

/** Whether the portal knows a dedicated icon for the extension. */
export const hasKnownIcon = (format: string) => fileKindOf(format) !== DEFAULT_KIND;

export const KNOWN_EXTENSIONS = Object.keys(KINDS);

interface FileIconProps {
  /** The extension without the dot (`pdf`), or `folder`. */
  format: string;
  size?: number;
}

/** The icon of a file type; decorative, the name next to it says what it is. */
export function FileIcon({ format, size = 22 }: FileIconProps) {
  const { icon: TypeIcon, color } = fileKindOf(format);
  const [hue, shade] = color.split('.');
  return (
    <TypeIcon
      size={size}
      stroke={1.6}
      aria-hidden
      focusable={false}
      data-format={format.toLowerCase()}
      style={{ flexShrink: 0, color: `var(--mantine-color-${hue}-${shade ?? '8'})` }}
    />
  );
}
