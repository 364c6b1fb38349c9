import { describe, expect, it, vi } from 'vitest';
import type { Resolver } from 'react-hook-form';
import { lazyResolver } from './forms';

interface Values {
  email: string;
}

const options = { fields: {}, shouldUseNativeValidation: false } as Parameters<Resolver<Values>>[2];
const emailError = { type: 'custom', message: 'Bitte eine gültige E-Mail-Adresse eingeben.' };
const failing: Resolver<Values> = () => ({ values: {}, errors: { email: emailError } });

describe('lazyResolver', () => {
  it('loads the resolver once, on preload or on first use, and validates with it', async () => {
    const load = vi.fn(async () => failing);
    const resolver = lazyResolver(load);
    expect(load).not.toHaveBeenCalled();
    resolver.preload();
    resolver.preload();
    const result = await resolver({ email: 'erika@' }, undefined, options);
    expect(result.errors).toEqual({ email: emailError });
    await resolver({ email: 'erika@' }, undefined, options);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('leaves the validation to the server when the code cannot be loaded, and retries next time', async () => {
    const load = vi
      .fn<() => Promise<Resolver<Values>>>()
      .mockRejectedValueOnce(new Error('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce(failing);
    const resolver = lazyResolver(load);
    resolver.preload();
    expect(await resolver({ email: 'erika@' }, undefined, options)).toEqual({
      values: { email: 'erika@' },
      errors: {},
    });
    expect((await resolver({ email: 'erika@' }, undefined, options)).errors).toHaveProperty('email');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
