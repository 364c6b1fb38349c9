import { useState } from 'react';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../testing/render';
import { ShownFilter } from './shown-filter';

const OPTIONS = [
  { value: 'alle', label: 'Alle' },
  { value: 'offen', label: 'Offen' },
] as const;

function Harness() {
  const [shown, setShown] = useState<'alle' | 'offen'>('alle');
  return (
    <>
      <ShownFilter options={OPTIONS} value={shown} onChange={setShown} />
      <p>Gewählt: {shown}</p>
    </>
  );
}

describe('ShownFilter', () => {
  it('presses the chosen button and reports a new choice', async () => {
    const { user } = renderWithProviders(<Harness />);
    const group = screen.getByRole('group', { name: 'Anzeigen' });
    expect(within(group).getByRole('button', { name: 'Alle' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(group).getByRole('button', { name: 'Offen' })).toHaveAttribute('aria-pressed', 'false');

    await user.click(within(group).getByRole('button', { name: 'Offen' }));
    expect(screen.getByText('Gewählt: offen')).toBeInTheDocument();
    expect(within(group).getByRole('button', { name: 'Offen' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(group).getByRole('button', { name: 'Alle' })).toHaveAttribute('aria-pressed', 'false');
  });
});
