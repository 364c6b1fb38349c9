/// <reference types="node" />
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Mantine's styles.css and the per-component files it is made of.
const allStylesPath = createRequire(import.meta.url).resolve('@mantine/core/styles.css');
const allStyles = readFileSync(allStylesPath, 'utf8');
const stylesDir = join(dirname(allStylesPath), 'styles');
const here = (file: string) => readFileSync(new URL(file, import.meta.url), 'utf8');
const publicPart = here('./mantine-public.css');
const signedInPart = here('./mantine-signed-in.css');
const styles = new Map(
  readdirSync(stylesDir)
    .filter((file) => file.endsWith('.css') && !file.endsWith('.layer.css'))
    .map((file) => [file.slice(0, -'.css'.length), readFileSync(join(stylesDir, file), 'utf8')]),
);

// The modules of the signed-out pages (decision 115): their Mantine components need the first part.
const publicModules = import.meta.glob<string>(
  [
    './layouts/public-layout.tsx',
    './routes/{login,forgot-password,reset-password,welcome,not-found,route-error}.tsx',
    '../features/auth/components/{*-form,two-factor-step}.tsx',
    '../components/{form-error,loading-state,page-title}.tsx',
  ],
  { query: '?raw', import: 'default', eager: true },
);

const imported = (css: string) =>
  [...css.matchAll(/@import '@mantine\/core\/styles\/([A-Za-z-]+)\.css';/g)].map((match) => match[1]!);

/** Where a component's rules start in styles.css. */
const position = (name: string) => allStyles.indexOf(styles.get(name)!.trim().slice(0, 300));

describe('Mantine styles in two parts (decision 115)', () => {
  const first = imported(publicPart);
  const second = imported(signedInPart);

  it('imports every component style file of Mantine exactly once', () => {
    expect(styles.size).toBeGreaterThan(50);
    expect([...first, ...second].sort()).toEqual([...styles.keys()].sort());
  });

  it("keeps the order of Mantine's styles.css in both parts", () => {
    for (const part of [first, second]) {
      const positions = part.map(position);
      expect(positions.every((at) => at >= 0)).toBe(true);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
    }
  });

  it('has the styles of every component the signed-out pages use in the first part', () => {
    expect(Object.keys(publicModules).length).toBeGreaterThanOrEqual(13);
    const used = new Set<string>();
    for (const source of Object.values(publicModules)) {
      for (const match of source.matchAll(/import \{([^}]*)\} from '@mantine\/core'/g))
        for (const name of match[1]!.split(',')) used.add(name.trim());
    }
    const styled = [...used].filter((name) => styles.has(name));
    expect(styled.length).toBeGreaterThan(5);
    expect(styled.filter((name) => !first.includes(name))).toEqual([]);
  });
});
