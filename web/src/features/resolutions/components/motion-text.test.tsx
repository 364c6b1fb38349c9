import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../testing/render';
import { FOLD_LINES, foldsAt, ResolutionText } from './motion-text';

/** 1.125rem at 1.5: one line of the text in pixels. */
const LINE = 27;

/** jsdom lays nothing out: the text's height as the browser would measure it, in lines. */
function textTakes(lines: number) {
  vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.tagName === 'BLOCKQUOTE' ? lines * LINE : 0;
  });
  const computed = window.getComputedStyle.bind(window);
  vi.spyOn(window, 'getComputedStyle').mockImplementation((element, pseudo) => {
    const style = computed(element, pseudo);
    if (element.tagName === 'BLOCKQUOTE') style.fontSize = '18px';
    return style;
  });
}

afterEach(() => vi.restoreAllMocks());

describe('the fold of a long Beschlusstext', () => {
  it('folds only a text of more than eight lines', () => {
    expect(FOLD_LINES).toBe(8);
    expect(foldsAt(2 * LINE, LINE)).toBe(false);
    expect(foldsAt(8 * LINE, LINE)).toBe(false);
    // Rounding of a line's height does not fold an eight-line text.
    expect(foldsAt(8 * LINE + 5, LINE)).toBe(false);
    expect(foldsAt(9 * LINE, LINE)).toBe(true);
    expect(foldsAt(100, 0)).toBe(false);
  });

  it('leaves a two-line text whole: no button, no cut, no unnamed region', () => {
    textTakes(2);
    renderWithProviders(<ResolutionText text="Der Aufsichtsrat stellt den Jahresabschluss fest." fold />);
    const quote = screen.getByText('Der Aufsichtsrat stellt den Jahresabschluss fest.');
    expect(quote.style.overflow).toBe('');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
  });

  it('shows eight lines of a longer text and a button for the rest inside the frame', async () => {
    textTakes(14);
    const text = 'Der Aufsichtsrat beschließt die Änderung der Geschäftsordnung. '.repeat(12).trim();
    const { user } = renderWithProviders(<ResolutionText text={text} fold />);
    const quote = screen.getByText(text);
    const toggle = await screen.findByRole('button', { name: 'Ganzen Text anzeigen' });
    // The fold cuts at a line, inside the figure: its frame (and bottom border) stays whole.
    expect(quote.style.webkitLineClamp).toBe(String(FOLD_LINES));
    expect(quote.style.overflow).toBe('hidden');
    expect(quote.closest('figure')).toContainElement(toggle);
    expect(quote.closest('figure')!.style.overflow).toBe('');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveAttribute('aria-controls', quote.id);
    expect(screen.queryByRole('region')).not.toBeInTheDocument();

    await user.click(toggle);
    expect(screen.getByRole('button', { name: 'Weniger anzeigen' })).toHaveAttribute('aria-expanded', 'true');
    expect(quote.style.overflow).toBe('');
  });

  it('never folds where it is not asked to (the entry’s and the motion’s own page)', () => {
    textTakes(30);
    renderWithProviders(<ResolutionText text="Ein langer Text." />);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByText('Ein langer Text.').style.overflow).toBe('');
  });
});
