/**
 * The web suite runs most files without isolation (vitest.config.ts): a worker evaluates the app's
 * modules once. A `vi.mock` in such a file would not take effect when an earlier file had loaded
 * the module already, and would reach the files after it. So every test file that mocks a module
 * must be one of the isolated files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SOURCE_DIR = join(import.meta.dirname, '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return /\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** `vi.mock(` or `vi.doMock(` in code (this file names them only in comments and strings). */
const mocksModules = (source: string) => /\bvi\.(do)?[mM]ock\(/.test(source);

describe('the suite without isolation', () => {
  it('recognises a module mock', () => {
    expect(mocksModules("vi.mock('../lib/x', () => ({}));")).toBe(true);
    expect(mocksModules('vi.doMock(import("../lib/x"))')).toBe(true);
    expect(mocksModules('vi.fn(); vi.spyOn(object, "method")')).toBe(false);
  });

  it('runs every file that mocks a module isolated (*.isolated.test.tsx)', () => {
    const files = testFiles(SOURCE_DIR);
    expect(files.length).toBeGreaterThan(50);
    const unisolated = files
      .filter((file) => !/\.isolated\.test\.tsx?$/.test(file) && file !== import.meta.filename)
      .filter((file) => mocksModules(readFileSync(file, 'utf8')))
      .map((file) => relative(SOURCE_DIR, file));
    expect(unisolated).toEqual([]);
    // The isolated project is not empty by accident: the router test mocks the pages.
    expect(files.some((file) => file.endsWith('router.isolated.test.tsx'))).toBe(true);
  });
});
