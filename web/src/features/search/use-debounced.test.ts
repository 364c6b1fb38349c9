import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useDebounced } from './use-debounced';

describe('useDebounced', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('takes a value over once it has not changed for the whole pause', () => {
    const { result, rerender } = renderHook(({ value }) => useDebounced(value, 250), {
      initialProps: { value: '' },
    });
    rerender({ value: 'Pr' });
    act(() => void vi.advanceTimersByTime(200));
    rerender({ value: 'Pro' });
    act(() => void vi.advanceTimersByTime(200));
    // 400 ms since "Pr", but only 200 ms since the last change.
    expect(result.current).toBe('');
    act(() => void vi.advanceTimersByTime(49));
    expect(result.current).toBe('');
    act(() => void vi.advanceTimersByTime(1));
    expect(result.current).toBe('Pro');
  });
});
