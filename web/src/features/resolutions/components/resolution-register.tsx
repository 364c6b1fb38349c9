import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Alert, Button, Group, Select, SimpleGrid, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import {
  IconFileSpreadsheet,
  IconDownload,
  IconFilter,
  IconFilterOff,
  IconSearch,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ResolutionResult } from '@gremienportal/contracts/resolutions';
import { SMALL_SCREEN_QUERY } from '../../../components/data-table-defaults';
import { ErrorState } from '../../../components/error-state';
import { LoadingState } from '../../../components/loading-state';
import { useAuth } from '../../../lib/auth';
import { errorMessage } from '../../../lib/api-client';
import {
  committeeChoicesQueryOptions,
  committeeTermsQueryOptions,
  downloadRegister,
  ownMembershipsQueryOptions,
  resolutionsQueryOptions,
} from '../resolutions.api';
import {
  activeFilterCount,
  mayCorrect,
  mayKeepFollowUp,
  overdueCountText,
  readRegisterFilters,
  resolutionCountText,
  RESULTS,
  writeRegisterFilters,
  yearChoices,
  type RegisterFilters,
} from '../resolutions.rules';
import { RESULT_LABELS } from '../resolution-labels';
import { resolutionPath } from './motion-result';
import { ResolutionCard } from './resolution-card';

const SEARCH_PAUSE_MS = 300;

/** The free text filter: applied after a short pause, so typing does not ask the server per key. */
function SearchField({ value, onChange }: { value: string; onChange: (q: string) => void }) {
  const [draft, setDraft] = useState(value);
  const apply = useRef(onChange);
  useEffect(() => {
    apply.current = onChange;
  });
  // A change from outside (reset, back button) shows; the own typing keeps its trailing space.
  useEffect(() => setDraft((current) => (current.trim() === value.trim() ? current : value)), [value]);
  useEffect(() => {
    if (draft.trim() === value.trim()) return;
    const timer = setTimeout(() => apply.current(draft), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [draft, value]);
  return (
    <TextInput
      label="Freitext"
      placeholder="Suchbegriff"
      leftSection={<IconSearch size={16} aria-hidden />}
      maxLength={200}
      value={draft}
      onChange={(event) => setDraft(event.currentTarget.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') onChange(draft);
      }}
    />
  );
}

function Filters({
  filters,
  onChange,
}: {
  filters: RegisterFilters;
  onChange: (patch: Partial<RegisterFilters>) => void;
}) {
  const id = useId();
  const phone = useMediaQuery(SMALL_SCREEN_QUERY);
  const [open, setOpen] = useState(false);
  const active = activeFilterCount(filters);
  const shown = !phone || open || active > 0;
  const committees = useQuery(committeeChoicesQueryOptions());
  const terms = useQuery({
    ...committeeTermsQueryOptions(filters.committee_id ?? 0),
    enabled: filters.committee_id !== undefined,
  });
  const number = (value: string | null) => (value ? Number(value) : undefined);

  return (
    <Stack gap="xs">
      {phone ? (
        <Button
          variant="default"
          size="sm"
          leftSection={<IconFilter size={16} aria-hidden />}
          aria-expanded={shown}
          aria-controls={id}
          onClick={() => setOpen((current) => !current)}
          style={{ alignSelf: 'flex-start' }}
        >
          {shown ? 'Filter ausblenden' : 'Filter anzeigen'}
          {active > 0 ? ` (${active} aktiv)` : ''}
        </Button>
      ) : null}
      {shown ? (
        <SimpleGrid
          id={id}
          cols={{ base: 1, xs: 2, md: 5 }}
          spacing="sm"
          role="search"
          aria-label="Beschlüsse filtern"
        >
          <Select
            label="Gremium"
            placeholder="Alle"
            data={(committees.data ?? []).map((committee) => ({
              value: String(committee.id),
              label: committee.name,
            }))}
            value={filters.committee_id === undefined ? null : String(filters.committee_id)}
            onChange={(value) => onChange({ committee_id: number(value), term_id: undefined })}
            clearable
            clearButtonProps={{ 'aria-label': 'Gremium zurücksetzen' }}
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label="Amtsperiode"
            placeholder="Alle"
            data={(terms.data ?? []).map((term) => ({ value: String(term.id), label: term.title }))}
            value={filters.term_id === undefined ? null : String(filters.term_id)}
            onChange={(value) => onChange({ term_id: number(value) })}
            disabled={filters.committee_id === undefined}
            clearable
            clearButtonProps={{ 'aria-label': 'Amtsperiode zurücksetzen' }}
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label="Jahr"
            placeholder="Alle"
            data={yearChoices().map((year) => String(year))}
            value={filters.year === undefined ? null : String(filters.year)}
            onChange={(value) => onChange({ year: number(value) })}
            clearable
            clearButtonProps={{ 'aria-label': 'Jahr zurücksetzen' }}
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label="Ergebnis"
            placeholder="Alle"
            data={RESULTS.map((result) => ({ value: result, label: RESULT_LABELS[result] }))}
            value={filters.result ?? null}
            onChange={(value) => onChange({ result: (value ?? undefined) as ResolutionResult | undefined })}
            clearable
            clearButtonProps={{ 'aria-label': 'Ergebnis zurücksetzen' }}
            comboboxProps={{ withinPortal: true }}
          />
          <SearchField value={filters.q ?? ''} onChange={(q) => onChange({ q: q.trim() || undefined })} />
        </SimpleGrid>
      ) : null}
      {active > 0 ? (
        <Group>
          <Button
            variant="subtle"
            size="compact-sm"
            leftSection={<IconFilterOff size={16} aria-hidden />}
            onClick={() =>
              onChange({
                committee_id: undefined,
                term_id: undefined,
                year: undefined,
                result: undefined,
                q: undefined,
              })
            }
          >
            Filter zurücksetzen
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

/** "Als PDF herunterladen" and "Als CSV exportieren" with the list's filters. */
function ExportButtons({ filters, disabled }: { filters: RegisterFilters; disabled: boolean }) {
  const [busy, setBusy] = useState<'pdf' | 'csv' | null>(null);
  const run = async (format: 'pdf' | 'csv') => {
    setBusy(format);
    try {
      await downloadRegister(format, filters);
    } catch (error) {
      notifications.show({
        color: 'red',
        message: errorMessage(error, 'Das Beschlussbuch konnte nicht heruntergeladen werden.'),
      });
    } finally {
      setBusy(null);
    }
  };
  return (
    <Group gap="sm">
      <Button
        variant="default"
        leftSection={<IconDownload size={18} aria-hidden />}
        loading={busy === 'pdf'}
        disabled={disabled || (busy !== null && busy !== 'pdf')}
        onClick={() => void run('pdf')}
      >
        Als PDF herunterladen
      </Button>
      <Button
        variant="default"
        leftSection={<IconFileSpreadsheet size={18} aria-hidden />}
        loading={busy === 'csv'}
        disabled={disabled || (busy !== null && busy !== 'csv')}
        onClick={() => void run('csv')}
      >
        Als CSV exportieren
      </Button>
    </Group>
  );
}

function RegisterList({ filters }: { filters: RegisterFilters }) {
  const { isAdmin } = useAuth();
  const navigate = useNavigate();
  const list = useQuery(resolutionsQueryOptions(filters));
  const memberships = useQuery(ownMembershipsQueryOptions());
  const own = memberships.data ?? [];
  const count = list.data?.length ?? 0;
  const filtered = activeFilterCount(filters) > 0;
  const countText = filters.overdue ? overdueCountText(count) : resolutionCountText(count);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="center" gap="sm">
        {/* Read out when a list has loaded: how many entries it holds. */}
        <Text fw={600} role="status">
          {list.data ? countText : ''}
        </Text>
        <ExportButtons filters={filters} disabled={!list.data || count === 0} />
      </Group>
      {list.isPending ? (
        <LoadingState label="Beschlüsse werden geladen …" />
      ) : list.isError ? (
        <ErrorState detail={list.error.message} onRetry={() => void list.refetch()} />
      ) : count === 0 ? (
        <Alert color="gray" variant="light">
          {filters.overdue
            ? 'Keine Umsetzung ist überfällig.'
            : filtered
              ? 'Für diese Filter gibt es keine Beschlüsse.'
              : 'Im Beschlussbuch steht noch kein Beschluss.'}
        </Alert>
      ) : (
        <Stack
          gap="md"
          component="ol"
          style={{ listStyle: 'none', margin: 0, padding: 0 }}
          aria-label="Beschlüsse"
        >
          {list.data.map((resolution) => (
            <li key={resolution.id}>
              <ResolutionCard
                resolution={resolution}
                inList
                mayKeepFollowUp={mayKeepFollowUp(isAdmin, own, resolution.committee.id)}
                mayCorrect={mayCorrect(own, resolution.committee.id)}
                onCorrected={(correction) => void navigate(resolutionPath(correction.id))}
              />
            </li>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/**
 * The Beschlussbuch: filters (Gremium, Amtsperiode, Jahr, Ergebnis, Freitext) kept in the
 * address, the entries newest first, PDF and CSV with the same filters; for admins a second view
 * of the follow-ups past their due date.
 */
export function ResolutionRegister() {
  const { isAdmin } = useAuth();
  const [params, setParams] = useSearchParams();
  const filters = readRegisterFilters(params);
  const update = (patch: Partial<RegisterFilters>) =>
    setParams(writeRegisterFilters({ ...filters, ...patch }), { replace: true });
  const content = (
    <Stack gap="md">
      <Filters filters={filters} onChange={update} />
      <RegisterList filters={filters} />
    </Stack>
  );
  if (!isAdmin) return content;
  return (
    <Tabs
      value={filters.overdue ? 'ueberfaellig' : 'alle'}
      onChange={(value) => update({ overdue: value === 'ueberfaellig' })}
      keepMounted={false}
    >
      <Tabs.List mb="md">
        <Tabs.Tab value="alle">Alle Beschlüsse</Tabs.Tab>
        <Tabs.Tab value="ueberfaellig">Überfällige Umsetzungen</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="alle">{filters.overdue ? null : content}</Tabs.Panel>
      <Tabs.Panel value="ueberfaellig">{filters.overdue ? content : null}</Tabs.Panel>
    </Tabs>
  );
}
