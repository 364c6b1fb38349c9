import { useParams } from 'react-router';

/** A positive integer id from the path (`:id`), or null when the path holds anything else. */
export function parseId(value: string | undefined): number | null {
  if (!value || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= 2_147_483_647 ? id : null;
}

export function useIdParam(name = 'id'): number | null {
  return parseId(useParams()[name]);
}
