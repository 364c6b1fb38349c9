import { zodResolver } from '@hookform/resolvers/zod';
import { loginFormSchema } from '@gremienportal/contracts/auth-forms';

/** Loaded by the login form on first use (lazyResolver), so zod is not part of the page's first load. */
export const loginResolver = zodResolver(loginFormSchema);
