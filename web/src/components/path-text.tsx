import { Fragment } from 'react';

/**
 * Text that may hold folder paths ("/Mitgliedervertreter/Vertreterversammlung"): a line may break
 * after every slash, so a long path wraps between its folders instead of in the middle of a word.
 */
export function PathText({ text }: { text: string }) {
  const parts = text.split('/');
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {part}
          {index < parts.length - 1 ? (
            <>
              /<wbr />
            </>
          ) : null}
        </Fragment>
      ))}
    </>
  );
}
