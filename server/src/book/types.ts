/** What the Sitzungsmappe is made of: already filtered to what its reader may see (decision 130). */
export interface BookPlan {
  event: {
    title: string;
    /** ISO 8601 UTC. */
    start: string;
    end: string;
    location: string;
  };
  /** "Vorname Nachname" of the member the book is made for. */
  reader: string;
  /** ISO 8601 UTC of the request: the footer's date. */
  createdAt: string;
  /** Where dates and times are shown (`EVENT_TIME_ZONE`). */
  timeZone: string;
  /** In reading order: 1, 2, 2.1, 2.2, 3. */
  items: BookItem[];
  /** Each visible document once, in the order of its first link. */
  documents: BookDocument[];
}

export interface BookItem {
  /** "1", "2.1". */
  number: string;
  title: string;
  presenter: string;
  /** What the agenda says of the item (often the Beschlussvorschlag); may be empty. */
  description: string;
  /** A sub-item (2.1) rather than a main item. */
  sub: boolean;
  /** Indexes into `BookPlan.documents`, in the item's order. */
  documents: number[];
  /** The item's Beschlussvorlagen the reader may see: title and the exact text to be resolved. */
  motions?: { title: string; text: string }[];
}

export interface BookDocument {
  title: string;
  /** The portal's lower-case extension; only `pdf` is inserted, the rest is listed. */
  format: string;
  sizeBytes: number;
}

/** The content of one PDF to insert, or why there is none. */
export type BookSource = { bytes: Uint8Array } | { failed: 'missing' | 'too_large' };

/** What was built, before the first byte is sent. */
export interface BookSummary {
  pages: number;
  /** Length of the whole PDF in bytes. */
  size: number;
  /** Indexes of the documents whose pages are in the book. */
  inserted: number[];
}

export type ToWorker =
  | { type: 'build'; plan: BookPlan; limits: ComposeLimits }
  /** The document `index`: `byteLength` bytes that follow on stdin (HelperProcess.sendBytes), or why there are none. */
  | { type: 'source'; index: number; byteLength: number }
  | { type: 'source'; index: number; failed: 'missing' | 'too_large' }
  | { type: 'more' };

export type FromWorker =
  | { type: 'need'; index: number }
  | ({ type: 'built' } & BookSummary)
  /** The book's next bytes; the one that completes its `size` is the last message of the book. */
  | { type: 'chunk'; bytes: Uint8Array }
  | { type: 'failed' };

export interface ComposeLimits {
  /** Pages of inserted documents in one book; a document that would pass it is listed instead. */
  maxPages: number;
  /** Indexes of documents not to load at all (they broke a worker before); listed as not inserted. */
  skip: number[];
}
