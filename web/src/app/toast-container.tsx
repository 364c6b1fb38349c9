import { Notifications } from '@mantine/notifications';

/** Where toasts appear: top right, closing after 5 seconds (product.md P2.1). Loaded after the first paint. */
export default function ToastContainer() {
  return <Notifications position="top-right" autoClose={5000} />;
}
