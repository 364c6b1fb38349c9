import { ACKNOWLEDGEMENT_MESSAGES } from '@gremienportal/contracts/acknowledgements';
import type { FileRow } from '../../db/schema.ts';
import { invalidField } from '../../errors.ts';

interface AcknowledgementInput {
  acknowledgement_required?: boolean | undefined;
  acknowledgement_due?: string | null | undefined;
  acknowledgement_reset?: boolean | undefined;
}

type Stored = Pick<FileRow, 'acknowledgement_required' | 'acknowledgement_due' | 'acknowledgement_since'>;

/**
 * The Kenntnisnahme columns of an upload (`stored` undefined) or an edit, and what the audit entry
 * records. A request starts when it is switched on and, unless the admin says no
 * (`acknowledgement_reset: false`), when a new content replaces the old one; switching it off
 * removes the date.
 */
export function acknowledgementColumns(
  body: AcknowledgementInput,
  stored: Stored | undefined,
  change: { replaced: boolean; now: string },
) {
  const wasRequired = stored?.acknowledgement_required === 1;
  const required = body.acknowledgement_required ?? wasRequired;
  const due = required
    ? body.acknowledgement_due !== undefined
      ? body.acknowledgement_due
      : (stored?.acknowledgement_due ?? null)
    : null;
  if (!required && typeof body.acknowledgement_due === 'string') {
    throw invalidField('acknowledgement_due', ACKNOWLEDGEMENT_MESSAGES.dueWithoutRequired);
  }
  const asksAgain =
    required &&
    (!wasRequired || (stored !== undefined && change.replaced && body.acknowledgement_reset !== false));
  const since = required ? (asksAgain ? change.now : (stored?.acknowledgement_since ?? change.now)) : null;
  const columns = {
    acknowledgement_required: required ? 1 : 0,
    acknowledgement_due: due,
    acknowledgement_since: since,
  };
  const details: Record<string, unknown> = {};
  if (stored === undefined) {
    if (required) Object.assign(details, { acknowledgement_required: true, acknowledgement_due: due });
  } else {
    if (required !== wasRequired) details.acknowledgement_required = { from: wasRequired, to: required };
    if (due !== (stored.acknowledgement_due ?? null)) {
      details.acknowledgement_due = { from: stored.acknowledgement_due ?? null, to: due };
    }
    if (wasRequired && required && asksAgain) details.acknowledgement_reset = true;
  }
  return { columns, details };
}
