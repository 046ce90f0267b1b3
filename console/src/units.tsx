import { useRef, useState } from 'preact/hooks';
import { ApiError } from './api/client';
import { problemsByField } from './field-errors';
import { BASE_UNIT, DECIMALS, parseNative, showAmount, type NetworkType, type Parsed } from './amounts';

/**
 * An amount in base units shown in native units with its symbol, at most 6 significant digits
 * (`≈` when rounded), the exact value in native and base units on hover.
 */
export function Amount({
  base,
  networkType,
  symbol,
}: {
  base: string;
  networkType: NetworkType;
  symbol: string;
}) {
  const shown = showAmount(base, networkType, symbol);
  return (
    <span class="amount" title={shown.exact}>
      {shown.text}
    </span>
  );
}

/** A field typed in native units that sends base units: what is typed, what it reads as, the API's refusal. */
export interface AmountFieldState {
  text: string;
  setText: (text: string) => void;
  parsed: Parsed;
  /** The API's 400 about the value sent, shown beside the field; null when there is none. */
  refusal: string | null;
  input: { current: HTMLInputElement | null };
  /**
   * Sends the base-unit value with `send`: nothing when the text is not an amount (the field says
   * why, and takes the focus); a 400 goes beside the field, and the action's outcome says so.
   */
  submit: (send: (base: string) => Promise<unknown>) => Promise<void>;
  clear: () => void;
}

export function useAmountField(networkType: NetworkType, symbol: string): AmountFieldState {
  const [text, setTyped] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const parsed = parseNative(text, networkType, symbol);
  return {
    text,
    setText: (typed) => {
      setTyped(typed);
      setRefusal(null);
    },
    parsed,
    refusal,
    input,
    submit: async (send) => {
      if (!parsed.ok) {
        input.current?.focus();
        throw new ApiError(400, `Nothing sent: ${parsed.problem}`);
      }
      setRefusal(null);
      try {
        await send(parsed.base);
      } catch (error) {
        const beside =
          error instanceof ApiError && error.status === 400
            ? problemsByField(error.message, ['threshold'])
            : null;
        if (beside?.fields.threshold !== undefined) {
          setRefusal(beside.fields.threshold);
          throw new ApiError(
            400,
            `Nothing changed: the API refused the threshold, as said beside it${beside.rest === null ? '.' : `; and: ${beside.rest}`}`,
          );
        }
        throw error;
      }
    },
    clear: () => {
      setTyped('');
      setRefusal(null);
    },
  };
}

/**
 * The input of an amount in native units (`0.05` ETH): beside it, what it sends in base units (or why
 * it is not an amount) and the API's refusal.
 */
export function AmountField({
  id,
  label,
  field,
  networkType,
  symbol,
}: {
  id: string;
  label: string;
  field: AmountFieldState;
  networkType: NetworkType;
  symbol: string;
}) {
  const empty = field.text.trim() === '';
  const note = empty
    ? `In ${symbol}, such as 0.05: at most ${DECIMALS[networkType]} decimals.`
    : field.parsed.ok
      ? `Sends ${field.parsed.base} ${BASE_UNIT[networkType]}.`
      : field.parsed.problem;
  const wrong = field.refusal !== null || (!empty && !field.parsed.ok);
  return (
    <div class="amount-field">
      <label for={id}>
        {label} ({symbol})
      </label>
      <input
        id={id}
        ref={field.input}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        value={field.text}
        aria-invalid={wrong}
        aria-describedby={`${id}-note${field.refusal !== null ? ` ${id}-refusal` : ''}`}
        onInput={(event) => field.setText(event.currentTarget.value)}
      />
      <p id={`${id}-note`} class={`help amount-note${!empty && !field.parsed.ok ? ' wrong' : ''}`}>
        {note}
      </p>
      {field.refusal !== null && (
        <p id={`${id}-refusal`} class="field-error" role="alert">
          {field.refusal}
        </p>
      )}
    </div>
  );
}
