import { Stack } from '@mantine/core';
import { PageSection } from '../../components/page-section';
import { PageTitle } from '../../components/page-title';
import {
  OpenMotionsSection,
  PendingMotionsSection,
} from '../../features/resolutions/components/pending-motions';
import { ResolutionRegister } from '../../features/resolutions/components/resolution-register';

/**
 * /beschluesse: the running votes waiting for the member first, the motions in the works for those
 * who lead them, then the Beschlussbuch of the member's committees (admins: all).
 */
export default function ResolutionsPage() {
  return (
    <Stack gap="lg">
      <PageTitle>Beschlüsse</PageTitle>
      <PendingMotionsSection />
      <OpenMotionsSection />
      <PageSection title="Beschlussbuch">
        <ResolutionRegister />
      </PageSection>
    </Stack>
  );
}
