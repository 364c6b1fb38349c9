import { FileExplorer } from '../explorer/file-explorer';

/** / and /files: the file explorer (product.md P3); the active folder is `?folder=ID`. */
export default function FilesPage() {
  return <FileExplorer />;
}
