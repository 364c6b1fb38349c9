import { Fragment } from 'react';

/**
 * Where a long address may break: after the "@" and before the dots, but not before the last dot,
 * so ".org" never stands alone on a line. `<wbr>` marks the places; only an address part too long
 * for the line breaks anywhere else (`overflow-wrap: anywhere` on the address alone). In a table,
 * `anywhere={false}` keeps the column from being squeezed to a few letters.
 */
export function EmailText({ email, anywhere = true }: { email: string; anywhere?: boolean }) {
  const at = email.lastIndexOf('@');
  const lastDot = email.lastIndexOf('.');
  const parts = email.split(/(?=\.)|(?<=@)/);
  let position = 0;
  return (
    <span style={{ overflowWrap: anywhere ? 'anywhere' : 'normal' }}>
      {parts.map((part, index) => {
        const start = position;
        position += part.length;
        // A break before this part, except before the top-level domain.
        const breakBefore = index > 0 && !(start === lastDot && lastDot > at);
        return (
          <Fragment key={start}>
            {breakBefore ? <wbr /> : null}
            {part}
          </Fragment>
        );
      })}
    </span>
  );
}
