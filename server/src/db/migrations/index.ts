import type { Migration } from 'kysely';
import type { Dialect } from '../dialect.ts';
import { migration0001 } from './0001_initial.ts';
import { migration0002 } from './0002_tree_version.ts';
import { migration0003 } from './0003_delivery_marks.ts';
import { migration0004 } from './0004_password_requests.ts';
import { migration0005 } from './0005_versions_trash.ts';
import { migration0006 } from './0006_two_factor.ts';
import { migration0007 } from './0007_search.ts';
import { migration0008 } from './0008_meetings.ts';
import { migration0009 } from './0009_news.ts';
import { migration0010 } from './0010_mail_html.ts';
import { migration0011 } from './0011_api_keys.ts';
import { migration0012 } from './0012_events_version.ts';
import { migration0013 } from './0013_upload_batches.ts';
import { migration0014 } from './0014_agenda_publication.ts';
import { migration0015 } from './0015_growth_indexes.ts';
import { migration0016 } from './0016_committees.ts';
import { migration0017 } from './0017_resolutions.ts';
import { migration0018 } from './0018_minutes.ts';

/** Numbered migrations; Kysely's migrator holds a lock so concurrent starts run them once. */
export function migrationsFor(dialect: Dialect): Record<string, Migration> {
  return {
    '0001_initial': migration0001(dialect),
    '0002_tree_version': migration0002(dialect),
    '0003_delivery_marks': migration0003(dialect),
    '0004_password_requests': migration0004(dialect),
    '0005_versions_trash': migration0005(dialect),
    '0006_two_factor': migration0006(dialect),
    '0007_search': migration0007(dialect),
    '0008_meetings': migration0008(dialect),
    '0009_news': migration0009(dialect),
    '0010_mail_html': migration0010(dialect),
    '0011_api_keys': migration0011(dialect),
    '0012_events_version': migration0012(dialect),
    '0013_upload_batches': migration0013(dialect),
    '0014_agenda_publication': migration0014(dialect),
    '0015_growth_indexes': migration0015(dialect),
    '0016_committees': migration0016(dialect),
    '0017_resolutions': migration0017(dialect),
    '0018_minutes': migration0018(dialect),
  };
}
