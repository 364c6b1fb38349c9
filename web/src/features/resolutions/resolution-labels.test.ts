import { DEFAULT_THEME } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { theme } from '../../app/theme';
import { CHOICE_COLORS, RESULT_COLORS } from './resolution-labels';

/** "brand.9" → its hex value in the portal's theme (Mantine's palette for the others). */
function hexOf(color: string): string {
  const [name, shade] = color.split('.') as [string, string];
  const palette = theme.colors?.[name] ?? DEFAULT_THEME.colors[name];
  const hex = palette?.[Number(shade)];
  if (!hex) throw new Error(`Keine Farbe ${color}`);
  return hex;
}

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((at) => {
      const value = parseInt(hex.slice(at, at + 2), 16) / 255;
      return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

describe('the colours of the ballot and of the results', () => {
  it('keeps white text on a filled result badge above 4.5:1', () => {
    for (const color of Object.values(RESULT_COLORS))
      expect(contrast(hexOf(color), '#ffffff'), color).toBeGreaterThanOrEqual(4.5);
    expect(RESULT_COLORS.angenommen).not.toBe('green.9');
  });

  it('keeps the choices’ text on white (outline) and white on them (chosen) above 4.5:1', () => {
    for (const color of Object.values(CHOICE_COLORS))
      expect(contrast(hexOf(color), '#ffffff'), color).toBeGreaterThanOrEqual(4.5);
  });

  it('measures as axe does: Mantine’s green 9 misses the minimum', () => {
    expect(contrast(DEFAULT_THEME.colors.green[9], '#ffffff')).toBeLessThan(4.5);
    expect(contrast('#2b8a3e', '#ffffff')).toBeCloseTo(4.37, 1);
  });
});
