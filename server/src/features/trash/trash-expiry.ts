import type { DailyTask } from '../../maintenance/daily-job.ts';
import { trashService } from './trash.service.ts';

/** The daily maintenance's part: Papierkorb entries older than TRASH_DAYS go for good. */
export const trashTasks: readonly DailyTask[] = [
  { name: 'trash-expiry', run: async (ctx) => void (await trashService(ctx).purgeExpired()) },
];
