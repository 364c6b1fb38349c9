import { useQuery } from '@tanstack/react-query';
import { settingsQueryOptions } from '../../lib/settings';
import { SiteFooter } from './site-footer';

/** The signed-in footer: the links come from the cached settings query. */
export function AppFooter() {
  const { data } = useQuery(settingsQueryOptions());
  return <SiteFooter settings={data} />;
}
