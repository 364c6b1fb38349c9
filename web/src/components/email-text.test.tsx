import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EmailText } from './email-text';

/** The address with "|" where a line may break. */
const breaks = (email: string) =>
  render(<EmailText email={email} />)
    .container.innerHTML.replace(/<\/?span[^>]*>/g, '')
    .replace(/<wbr>/g, '|');

describe('EmailText', () => {
  it('breaks before dots and after the @, never before the top-level domain', () => {
    expect(breaks('margarete.sonnenschein-bergmann.x1@genossenschaft-beispiel.org')).toBe(
      'margarete|.sonnenschein-bergmann|.x1@|genossenschaft-beispiel.org',
    );
    expect(breaks('a@mail.example.de')).toBe('a@|mail|.example.de');
  });
});
