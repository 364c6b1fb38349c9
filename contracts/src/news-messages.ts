/**
 * The texts of "Neu für Sie" (decision 131), without schemas: the explorer's grid and tree show the
 * "Neu" badge and the counts on its first load, which must not carry zod's schemas (decision 024).
 */
export const NEWS_MESSAGES = {
  title: 'Neu für Sie',
  newBadge: 'Neu',
  newDocuments: 'Neue Dokumente',
  showAll: 'alle anzeigen',
  pendingAcknowledgements: 'Warten auf Ihre Kenntnisnahme',
  nextEvents: 'Nächste Termine',
  markFolderRead: 'Alle als gelesen markieren',
  markAllRead: 'Alle als gelesen markieren',
  markedFolder: 'Alle Dokumente in diesem Ordner wurden als gelesen markiert.',
  markedAll: 'Alle Dokumente wurden als gelesen markiert.',
  markFailed: 'Die Dokumente konnten nicht als gelesen markiert werden.',
  loadFailed: 'Neuigkeiten konnten nicht geladen werden.',
  /** "3 neue Dokumente" / "1 neues Dokument" (a folder's badge, the list's heading). */
  newCount: (count: number) => (count === 1 ? '1 neues Dokument' : `${count} neue Dokumente`),
} as const;
