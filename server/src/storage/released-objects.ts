import type { FileStorage } from './file-storage.ts';

type Remover = { storage: FileStorage; logger: { warn(details: object, message: string): void } };

/**
 * Removes a stored object after the change that released it has committed; never throws. What
 * cannot be removed now stays until the start-up sweep, since no row refers to it any more.
 */
export async function deleteReleasedObject(ctx: Remover, key: string | null | undefined): Promise<void> {
  if (!key) return;
  try {
    await ctx.storage.delete(key);
  } catch (error) {
    ctx.logger.warn({ err: error, key }, 'Gespeicherte Datei konnte nicht entfernt werden');
  }
}

/** Removes several released objects, one after another (see deleteReleasedObject). */
export async function deleteReleasedObjects(ctx: Remover, keys: readonly string[]): Promise<void> {
  for (const key of keys) await deleteReleasedObject(ctx, key);
}
