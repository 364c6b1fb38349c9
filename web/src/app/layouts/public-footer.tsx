import { useEffect, useState } from 'react';
import { loadLegalLinks, type LegalLinks } from '../../lib/legal-links';
import { SiteFooter } from './site-footer';

/**
 * The footer of the signed-out pages. They load without the data layer of the signed-in part
 * (decision 115), so the settings come from one plain request, shared by all signed-out pages.
 */
export function PublicFooter() {
  const [links, setLinks] = useState<LegalLinks | undefined>(undefined);

  useEffect(() => {
    let active = true;
    void loadLegalLinks().then((loaded) => {
      if (active) setLinks(loaded);
    });
    return () => {
      active = false;
    };
  }, []);

  return <SiteFooter settings={links} />;
}
