import type { ExplorerItem } from '@gremienportal/contracts/files';
import type { AgendaFile, AgendaItem } from '@gremienportal/contracts/meetings';

/** A linked document as the agenda lists it. */
export function makeAgendaFile(id: number, title: string, overrides: Partial<AgendaFile> = {}): AgendaFile {
  return {
    id,
    title,
    format: 'pdf',
    mime_type: 'application/pdf',
    external: `KeY${String(id).padStart(20, '0')}`,
    size: 1.25,
    size_bytes: 1_310_720,
    updated_at: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

const item = (
  id: number,
  number: string,
  title: string,
  parentId: number | null,
  position: number,
  files: AgendaFile[],
  extra: Partial<AgendaItem> = {},
): AgendaItem => ({
  id,
  parent_id: parentId,
  position,
  number,
  title,
  description: '',
  presenter: '',
  files,
  ...extra,
});

/**
 * An agenda as the server reads it: 1 Begrüßung, 2 Jahresabschluss with 2.1 and 2.2, 3
 * Verschiedenes. `unseenBy` gives the admins' answer (per document, the roles that miss it).
 */
export function makeAgenda({ admin = false }: { admin?: boolean } = {}): AgendaItem[] {
  const unseen = (roles: string[]) => (admin ? { unseen_by: roles } : {});
  return [
    item(11, '1', 'Begrüßung', null, 0, [makeAgendaFile(101, 'Einladung', unseen([]))], {
      presenter: 'Dr. Maria Vorsitz',
    }),
    item(
      12,
      '2',
      'Jahresabschluss 2025',
      null,
      1,
      [
        makeAgendaFile(102, 'Bilanz 2025', unseen([])),
        ...(admin ? [makeAgendaFile(103, 'Bericht des Aufsichtsrats', unseen(['Vertreter']))] : []),
      ],
      { description: 'Vorlage und Aussprache.\nBeschluss.', presenter: 'Vorstand' },
    ),
    item(13, '2.1', 'Bericht der Kassenprüfung', 12, 2, [
      makeAgendaFile(104, 'Kassenbericht', { format: 'docx', size_bytes: 2048, ...unseen([]) }),
    ]),
    item(14, '2.2', 'Verwendung des Bilanzgewinns', 12, 3, []),
    item(15, '3', 'Verschiedenes', null, 4, []),
  ];
}

/** A folder as the explorer's listings return it. */
export function makeFolderEntry(id: number, title: string, breadcrumb = `/${title}`): ExplorerItem {
  return {
    type: 'folder',
    id,
    title,
    format: 'folder',
    date: '2026-01-01T10:00:00.000Z',
    roles: ['Vertreter'],
    roles_string: 'Vertreter',
    breadcrumb,
    parent: null,
    parent_id: 1,
    children: 0,
    files: 1,
    new_count: 0,
    updated_at: '2026-01-01T10:00:00.000Z',
    archived: false,
  };
}

/** A document as the explorer's listings return it. */
export function makeFileEntry(
  id: number,
  title: string,
  folder: { id: number; title: string },
): ExplorerItem {
  return {
    type: 'file',
    id,
    title,
    format: 'pdf',
    date: '2026-01-01T10:00:00.000Z',
    external: `KeY${String(id).padStart(20, '0')}`,
    mime_type: 'application/pdf',
    roles: ['Vertreter'],
    roles_string: 'Vertreter',
    folder: { ...folder, breadcrumb: `/${folder.title}` },
    folder_id: folder.id,
    folder_name: folder.title,
    size: 0.5,
    size_bytes: 524_288,
    updated_at: '2026-01-01T10:00:00.000Z',
    archived: false,
  };
}
