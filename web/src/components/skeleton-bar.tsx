import classes from './skeleton-bar.module.css';

interface SkeletonBarProps {
  /** Pixels, or any CSS length such as `60%`. */
  width: number | string;
  height: number;
}

/** A placeholder line while content loads; decorative, the surrounding status names the wait. */
export function SkeletonBar({ width, height }: SkeletonBarProps) {
  return <span className={classes.bar} style={{ width, height }} aria-hidden />;
}
