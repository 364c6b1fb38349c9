import { Fragment } from 'react';
import { splitByRanges, type TextRange } from '../highlight';
import classes from './search.module.css';

/**
 * A title or snippet with the matched words in `<mark>`: plain text parts only, never markup
 * from the server.
 */
export function HighlightedText({ text, ranges }: { text: string; ranges: readonly TextRange[] | null }) {
  return (
    <>
      {splitByRanges(text, ranges).map((part, index) =>
        part.marked ? (
          <mark key={index} className={classes.mark}>
            {part.text}
          </mark>
        ) : (
          <Fragment key={index}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}
