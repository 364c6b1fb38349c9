import type { FileStorage } from './file-storage.ts';

/**
 * Removes a stored object after the change that released it has committed; never throws. What
 * cannot be removed now stays until the start-up sweep, since no row refers to it any more.
 */
export async function deleteReleasedObject(
  ctx: { storage: FileStorage; logger: { warn(details: object, message: string): void } },
  key: string | null | undefined,
): Promise<void> {
  if (!key) return;
  try {
    await ctx.storage.delete(key);
  } catch (error) {
    ctx.logger.warn({ err: error, key }, 'Gespeicherte Datei konnte nicht entfernt werden');
  }
}
