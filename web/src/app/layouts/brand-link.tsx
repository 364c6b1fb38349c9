import { Link } from 'react-router';
import { LogoMark } from '../../components/logo';
import { APP_NAME } from '../../components/page-title';
import { classes } from './layout-classes';

export function BrandLink() {
  return (
    <Link to="/" className={classes.brand}>
      <LogoMark size={36} />
      <span>{APP_NAME}</span>
    </Link>
  );
}
