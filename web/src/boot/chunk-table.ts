/** The id of the JSON block in index.html that names each first-load group's chunk files. */
export const CHUNK_TABLE_ID = 'first-load-chunks';
