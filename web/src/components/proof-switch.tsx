import { Button } from '@mantine/core';
import type { TwoFactorMethod } from '@gremienportal/contracts/two-factor-rules';

const SWITCH_LABELS: Record<TwoFactorMethod, string> = {
  totp: 'Stattdessen Code eingeben',
  webauthn: 'Stattdessen Passkey verwenden',
  recovery: 'Wiederherstellungscode verwenden',
};

/** The first way to confirm an account offers: passkey, else app code, else a recovery code. */
export function firstMethod(methods: readonly TwoFactorMethod[], passkeys = true): TwoFactorMethod {
  if (passkeys && methods.includes('webauthn')) return 'webauthn';
  return methods.includes('totp') ? 'totp' : 'recovery';
}

interface ProofSwitchProps {
  methods: readonly TwoFactorMethod[];
  current: TwoFactorMethod;
  onSwitch: (method: TwoFactorMethod) => void;
  disabled?: boolean;
}

/** "Stattdessen Code eingeben", "Wiederherstellungscode verwenden": the other ways to confirm. */
export function ProofSwitch({ methods, current, onSwitch, disabled }: ProofSwitchProps) {
  return (
    <>
      {methods
        .filter((method) => method !== current)
        .map((method) => (
          <Button
            key={method}
            data-wrap
            variant="subtle"
            size="md"
            onClick={() => onSwitch(method)}
            disabled={disabled}
          >
            {SWITCH_LABELS[method]}
          </Button>
        ))}
    </>
  );
}
