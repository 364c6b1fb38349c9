/** The portal's mark: two committee members on the cooperative's green. Same as favicon.svg. */
export function LogoMark({ size = 36 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 48 48" aria-hidden focusable="false">
      <rect width="48" height="48" rx="11" fill="#0f7b5f" />
      <circle cx="31" cy="17" r="5.5" fill="#9fdcc5" />
      <path d="M21 37a10 10 0 0 1 20 0z" fill="#9fdcc5" />
      <circle cx="19" cy="19" r="6.5" fill="#ffffff" />
      <path d="M7 39a12 12 0 0 1 24 0z" fill="#ffffff" />
    </svg>
  );
}
