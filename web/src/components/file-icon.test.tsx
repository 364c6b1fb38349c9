import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FileIcon, fileKindOf, hasKnownIcon, KNOWN_EXTENSIONS } from './file-icon';

describe('FileIcon', () => {
  it('knows about 30 extensions (product.md P3) and the folder', () => {
    expect(KNOWN_EXTENSIONS.length).toBeGreaterThanOrEqual(30);
    for (const ext of [
      'avi',
      'gif',
      'ico',
      'jpeg',
      'jpg',
      'mkv',
      'mov',
      'mp4',
      'pdf',
      'png',
      'zip',
      'doc',
      'docx',
    ]) {
      expect(hasKnownIcon(ext), ext).toBe(true);
    }
    expect(fileKindOf('folder').label).toBe('Ordner');
  });

  it('ignores case and a leading dot, and gives unknown types the default icon', () => {
    expect(fileKindOf('PDF')).toBe(fileKindOf('pdf'));
    expect(fileKindOf('.xlsx')).toBe(fileKindOf('xlsx'));
    expect(hasKnownIcon('xyz')).toBe(false);
    expect(fileKindOf('xyz').label).toBe('Datei');
  });

  it('draws a decorative icon that screen readers skip', () => {
    const { container } = render(<FileIcon format="pdf" />);
    const svg = container.querySelector('svg')!;
    expect(svg).toHaveAttribute('aria-hidden', 'true');
    expect(svg).toHaveAttribute('data-format', 'pdf');
    expect(container.querySelector('svg')!.classList.toString()).not.toBe(
      render(<FileIcon format="unbekannt" />)
        .container.querySelector('svg')!
        .classList.toString(),
    );
  });
});
