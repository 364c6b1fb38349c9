/**
 * "Diesem Gerät 30 Tage vertrauen" (decision 126): the server's device token, kept per e-mail address
 * so that on a shared computer one member's trust never skips another member's second step.
 * Signing out keeps it; it is only worth anything together with the right password.
 */
const keyFor = (email: string) => `gp.device.${email.trim().toLowerCase()}`;

export function readDeviceToken(email: string): string | undefined {
  try {
    return window.localStorage.getItem(keyFor(email)) ?? undefined;
  } catch {
    return undefined;
  }
}

export function storeDeviceToken(email: string, token: string): void {
  try {
    window.localStorage.setItem(keyFor(email), token);
  } catch {
    // Without storage the second step is simply asked again next time.
  }
}

export function forgetDeviceToken(email: string): void {
  try {
    window.localStorage.removeItem(keyFor(email));
  } catch {
    // Nothing stored that could be removed.
  }
}
