import type { AppContext } from '../../context.ts';
import { beschlussbuchService } from './beschlussbuch.service.ts';
import { motionsService } from './motions.service.ts';
import { resolutionsService } from './resolutions.service.ts';

/** The Beschlüsse feature's services, wired once (decision 190). */
export function resolutionsFeature(ctx: AppContext) {
  const resolutions = resolutionsService(ctx);
  return {
    motions: motionsService(ctx),
    resolutions,
    register: beschlussbuchService(ctx, resolutions),
  };
}
export type ResolutionsFeature = ReturnType<typeof resolutionsFeature>;
