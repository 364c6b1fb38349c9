import { useCallback } from 'react';
import {
  useForm,
  type ControllerRenderProps,
  type FieldPath,
  type FieldValues,
  type RegisterOptions,
  type Resolver,
  type UseFormProps,
  type UseFormReturn,
} from 'react-hook-form';

/**
 * Forms validate as product.md P11 says: a field on blur when it is not empty, again on every change
 * while it shows an error, and all fields on submit. react-hook-form's own modes cannot express
 * "on blur only when filled", so validation is triggered here and its built-in modes stay off.
 */

function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

export interface SpecForm<TValues extends FieldValues, TContext, TTransformed> extends UseFormReturn<
  TValues,
  TContext,
  TTransformed
> {
  /**
   * Props for a text-like input: register plus the spec's validation timing, its error text and
   * `disabled` while the form submits.
   */
  field: (
    name: FieldPath<TValues>,
    options?: RegisterOptions<TValues, FieldPath<TValues>>,
  ) => ReturnType<UseFormReturn<TValues, TContext, TTransformed>['register']> & {
    error?: string;
    'aria-invalid'?: true;
    disabled: boolean;
  };
  /**
   * The same for a controlled input (Select, …) from a Controller's `field`: its name, ref and value,
   * the spec's timing, the error text and `disabled` while the form submits. `afterChange` runs
   * between the new value and its validation (e.g. to clear a field that depends on it).
   */
  controlled: <TName extends FieldPath<TValues>>(
    field: ControllerRenderProps<TValues, TName>,
    afterChange?: () => void,
  ) => ControlledField<ControllerRenderProps<TValues, TName>['value']>;
  /** For controlled inputs (Select, …): call after the value changed. */
  handleFieldChange: (name: FieldPath<TValues>) => void;
  /** For controlled inputs: call when the input lost focus. */
  handleFieldBlur: (name: FieldPath<TValues>) => void;
  /** The error text of a field, for controlled inputs. */
  errorOf: (name: FieldPath<TValues>) => string | undefined;
}

/** What `controlled` hands to a select (the role and folder selects take exactly this). */
export interface ControlledField<TValue> {
  name: string;
  ref: ControllerRenderProps['ref'];
  value: TValue;
  onChange: (value: TValue) => void;
  onBlur: () => void;
  error?: string;
  disabled: boolean;
}

export function useSpecForm<TValues extends FieldValues, TContext = unknown, TTransformed = TValues>(
  props: UseFormProps<TValues, TContext, TTransformed>,
): SpecForm<TValues, TContext, TTransformed> {
  const form = useForm<TValues, TContext, TTransformed>({
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    shouldFocusError: true,
    ...props,
  });
  const { getValues, getFieldState, trigger, register, formState } = form;

  const handleFieldBlur = useCallback(
    (name: FieldPath<TValues>) => {
      if (!isEmptyValue(getValues(name))) void trigger(name);
    },
    [getValues, trigger],
  );

  const handleFieldChange = useCallback(
    (name: FieldPath<TValues>) => {
      if (getFieldState(name).error) void trigger(name);
    },
    [getFieldState, trigger],
  );

  const errorOf = (name: FieldPath<TValues>) => getFieldState(name, formState).error?.message;

  const field: SpecForm<TValues, TContext, TTransformed>['field'] = (name, options) => {
    const registration = register(name, options);
    const error = errorOf(name);
    return {
      ...registration,
      onChange: async (event) => {
        await registration.onChange(event);
        handleFieldChange(name);
      },
      onBlur: async (event) => {
        await registration.onBlur(event);
        handleFieldBlur(name);
      },
      error,
      // Not every input (PasswordInput) marks itself invalid for screen readers.
      'aria-invalid': error ? true : undefined,
      disabled: formState.isSubmitting,
    };
  };

  const controlled: SpecForm<TValues, TContext, TTransformed>['controlled'] = (field, afterChange) => ({
    name: field.name,
    ref: field.ref,
    value: field.value,
    onChange: (value) => {
      field.onChange(value);
      afterChange?.();
      handleFieldChange(field.name);
    },
    onBlur: () => {
      field.onBlur();
      handleFieldBlur(field.name);
    },
    error: errorOf(field.name),
    disabled: formState.isSubmitting,
  });

  return { ...form, field, controlled, handleFieldBlur, handleFieldChange, errorOf };
}

/** A resolver that fetches its code when first needed; see `lazyResolver`. */
export type LazyResolver<TValues extends FieldValues, TContext, TTransformed> = Resolver<
  TValues,
  TContext,
  TTransformed
> & {
  /** Starts fetching the code, e.g. when the form gets the focus. */
  preload: () => void;
};

/**
 * A resolver whose code (contract schema and zod) is fetched on first use instead of with the
 * page, for pages whose first load must stay small (the login page, decision 024). A form
 * validates first at the blur of a filled field or at submit; calling `preload` when the form gets
 * the focus fetches the code before that. Should it fail to load, that one validation is left to
 * the server, which answers with the same contract messages; the next validation tries again.
 */
export function lazyResolver<TValues extends FieldValues, TContext, TTransformed>(
  load: () => Promise<Resolver<TValues, TContext, TTransformed>>,
): LazyResolver<TValues, TContext, TTransformed> {
  let loading: Promise<Resolver<TValues, TContext, TTransformed>> | undefined;
  const get = () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  const resolver: Resolver<TValues, TContext, TTransformed> = async (values, context, options) => {
    let resolve: Resolver<TValues, TContext, TTransformed>;
    try {
      resolve = await get();
    } catch {
      return { values: values as unknown as TTransformed, errors: {} };
    }
    return resolve(values, context, options);
  };
  return Object.assign(resolver, {
    preload: () => {
      get().catch(() => undefined);
    },
  });
}
