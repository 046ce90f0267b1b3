import type { ComponentChildren, VNode } from 'preact';
import { useCallback, useRef, useState } from 'preact/hooks';
import { ApiError } from './api/client';
import { OutcomeText, useAction } from './components';
import { ConfirmDialog } from './dialog';
import { problemsByField, type FieldProblems } from './field-errors';

/**
 * The problems of a form's fields, from the API's 400 (problemsByField: the one helper every form
 * uses) or from the console's own checks before sending, each shown beside its field.
 */
export interface FieldErrors {
  /** The problem of a field (its API path), or null. */
  of: (field: string) => string | null;
  /**
   * Runs `send`: a 400 is spread over the fields, and what names none of them is the error the action
   * shows (the fields' problems are beside them); any other error is thrown as it came.
   */
  guard: <T>(send: () => Promise<T>) => Promise<T>;
  /** Refuses to send: the problems go beside their fields, and the action says nothing was sent. */
  refuse: (problems: Record<string, string>) => never;
  clear: () => void;
}

export function useFieldErrors(fields: readonly string[]): FieldErrors {
  const [problems, setProblems] = useState<FieldProblems>({ fields: {}, rest: null });
  const known = useRef(fields);
  known.current = fields;
  const refuse = useCallback((shown: Record<string, string>): never => {
    setProblems({ fields: shown, rest: null });
    throw new ApiError(400, 'Nothing sent: correct what is said beside the fields.');
  }, []);
  const guard = useCallback(async <T,>(send: () => Promise<T>): Promise<T> => {
    setProblems({ fields: {}, rest: null });
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 400) throw error;
      const found = problemsByField(error.message, known.current);
      setProblems(found);
      const beside = Object.keys(found.fields).length > 0;
      throw new ApiError(
        400,
        `Nothing changed: ${
          found.rest === null
            ? 'the API refused what is said beside the fields.'
            : beside
              ? `the API refused what is said beside the fields, and: ${found.rest}`
              : found.rest
        }`,
      );
    }
  }, []);
  return {
    of: (field) => problems.fields[field] ?? null,
    guard,
    refuse,
    clear: useCallback(() => setProblems({ fields: {}, rest: null }), []),
  };
}

/** What a field's control gets: its id, whether it is wrong, and the ids of its help and its problem. */
export interface ControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby'?: string;
}

/** A field's problem, beside it (ids: `<field id>-error`). */
export function FieldError({ id, error }: { id: string; error: string | null }) {
  if (error === null) return null;
  return (
    <p id={`${id}-error`} class="field-error">
      {error}
    </p>
  );
}

/** The props of a control with a help text and maybe a problem. */
export function controlProps(id: string, error: string | null, help: boolean): ControlProps {
  const described = [help ? `${id}-help` : '', error !== null ? `${id}-error` : ''].filter(Boolean);
  return {
    id,
    'aria-invalid': error !== null,
    'aria-describedby': described.length > 0 ? described.join(' ') : undefined,
  };
}

/** A labelled control with its help and the API's problem about it. */
export function Field({
  id,
  label,
  help,
  error,
  children,
}: {
  id: string;
  label: string;
  help?: ComponentChildren;
  error: string | null;
  children: (props: ControlProps) => VNode;
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children(controlProps(id, error, help !== undefined))}
      {help !== undefined && (
        <p id={`${id}-help`} class="help">
          {help}
        </p>
      )}
      <FieldError id={id} error={error} />
    </div>
  );
}

/** The optional id of a resource to create, with the API's rule for it and its problem. */
export function NewIdField({
  id,
  value,
  onValue,
  error,
}: {
  id: string;
  value: string;
  onValue: (value: string) => void;
  error: string | null;
}) {
  return (
    <Field
      id={id}
      label="Id (optional)"
      help="1 to 36 letters, digits, - or _. Empty: the service makes a UUID."
      error={error}
    >
      {(props) => (
        <input
          {...props}
          type="text"
          spellcheck={false}
          value={value}
          onInput={(e) => onValue(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}

/**
 * Edit and Delete on a resource's page (`what`: `target hook-a`). Edit calls `onOpen` (the form starts
 * from the resource as read) and shows the form's fields (`children`) with Save and Cancel; Save runs
 * `save`, then closes the form and calls `onSaved`. Delete asks first, `effect` saying what follows,
 * then runs `remove` and calls `onDeleted`. The outcome is said beside the form, or under the buttons.
 */
export function EditAndDelete({
  what,
  id,
  onOpen,
  save,
  onSaved,
  remove,
  onDeleted,
  effect,
  children,
}: {
  what: string;
  id: string;
  onOpen: () => void;
  save: () => Promise<unknown>;
  onSaved: () => void;
  remove: () => Promise<unknown>;
  onDeleted: () => void;
  effect: ComponentChildren;
  children: ComponentChildren;
}) {
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [outcome, busy, act] = useAction();
  const open = () => {
    onOpen();
    setEditing(true);
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await act(save, 'Saved.')) {
      setEditing(false);
      onSaved();
    }
  };
  const confirmed = async () => {
    if (await act(remove, 'Deleted.')) onDeleted();
  };
  return (
    <>
      <div class="actions">
        <button type="button" disabled={busy || editing} onClick={open}>
          Edit
        </button>
        <button type="button" class="danger" disabled={busy} onClick={() => setDeleting(true)}>
          Delete
        </button>
      </div>
      {!editing && <OutcomeText outcome={outcome} />}
      {editing && (
        <form class="edit-form" aria-label={`Edit ${what}`} onSubmit={(event) => void submit(event)}>
          {children}
          <div class="actions">
            <button type="submit" class="primary" disabled={busy}>
              Save
            </button>
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
          <OutcomeText outcome={outcome?.kind === 'error' ? outcome : null} />
        </form>
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete ${what}?`}
          confirm={`Delete ${id}`}
          onConfirm={confirmed}
          onClose={() => setDeleting(false)}
        >
          <p>{effect}</p>
        </ConfirmDialog>
      )}
    </>
  );
}

/** An RPC URL of a form: as typed, or as the API answered it (masked). */
export interface RpcRow {
  url: string;
  weight: string;
}

/** The rows of a list of RPC URLs as the API answered them. */
export const rpcRows = (urls: ReadonlyArray<{ url: string; weight: number }> | null): RpcRow[] =>
  (urls ?? []).map((rpc) => ({ url: rpc.url, weight: String(rpc.weight) }));

const MASK = '***';

/**
 * The rows as the API takes them, or the problems that keep them from being sent: a masked URL may go
 * back only as it was read (the service then keeps the URL stored behind it: docs/reference/relayers.md#49-masked-urls-sent-back);
 * one edited but still masked would be taken for a URL of its own, so it is not sent.
 */
export function rpcBody(
  rows: readonly RpcRow[],
  read: readonly string[],
  path: string,
):
  | { ok: true; urls: Array<{ url: string; weight: number }> }
  | { ok: false; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const urls = rows.map((row, i) => {
    const url = row.url.trim();
    if (url.includes(MASK) && !read.includes(url))
      problems[`${path}[${i}]`] =
        `${path}[${i}].url is masked (${MASK}) but is not a URL as read: type the whole URL, or put back the one shown.`;
    const weight = row.weight.trim() === '' ? 100 : Number(row.weight);
    if (!Number.isInteger(weight))
      problems[`${path}[${i}]`] = `${path}[${i}].weight must be a whole number from 0 to 100`;
    return { url, weight };
  });
  return Object.keys(problems).length > 0 ? { ok: false, problems } : { ok: true, urls };
}

/** The API's most RPC URLs in a list (docs/api.md#relayers). */
const MAX_RPC_URLS = 20;

/** The paths of a list of RPC URLs and of each of its rows, for useFieldErrors. */
export const rpcPaths = (path: string): string[] => [
  path,
  ...Array.from({ length: MAX_RPC_URLS }, (_, i) => `${path}[${i}]`),
];

/**
 * A list of RPC URLs and weights to edit: each row's URL and weight, Remove, Add a URL; masked URLs
 * as read, and what happens to those left unchanged.
 */
export function RpcUrlsField({
  id,
  legend,
  path,
  rows,
  onRows,
  errors,
  empty,
}: {
  id: string;
  legend: string;
  /** The field's API path (`rpc_urls`, `custom_rpc_urls`): its rows' problems are named `<path>[i]`. */
  path: string;
  rows: RpcRow[];
  onRows: (rows: RpcRow[]) => void;
  errors: FieldErrors;
  /** What an empty list means. */
  empty: string;
}) {
  const set = (i: number, change: Partial<RpcRow>) =>
    onRows(rows.map((row, j) => (j === i ? { ...row, ...change } : row)));
  return (
    <fieldset class="rpc-urls" aria-describedby={`${id}-help`}>
      <legend>{legend}</legend>
      <p id={`${id}-help`} class="help">
        Weights 0 to 100 (100 when empty). A URL left as shown, masked with {MASK}, keeps the URL stored
        behind it, credentials included: the console sends the masked text back and the service matches it to
        the stored URL. To change one, replace all of it. {empty}
      </p>
      {rows.map((row, i) => {
        const rowId = `${id}-${i}`;
        const error = errors.of(`${path}[${i}]`);
        return (
          <div class="rpc-row" key={i}>
            <div class="field">
              <label for={`${rowId}-url`}>URL {i + 1}</label>
              <input
                type="url"
                spellcheck={false}
                autoComplete="off"
                value={row.url}
                onInput={(event) => set(i, { url: event.currentTarget.value })}
                id={`${rowId}-url`}
                aria-invalid={error !== null}
                aria-describedby={error !== null ? `${rowId}-error` : undefined}
              />
            </div>
            <div class="field weight">
              <label for={`${rowId}-weight`}>Weight {i + 1}</label>
              <input
                id={`${rowId}-weight`}
                type="number"
                min={0}
                max={100}
                step={1}
                inputMode="numeric"
                value={row.weight}
                onInput={(event) => set(i, { weight: event.currentTarget.value })}
              />
            </div>
            <button type="button" onClick={() => onRows(rows.filter((_, j) => j !== i))}>
              Remove<span class="visually-hidden"> URL {i + 1}</span>
            </button>
            <FieldError id={rowId} error={error} />
          </div>
        );
      })}
      <button type="button" onClick={() => onRows([...rows, { url: '', weight: '100' }])}>
        Add a URL
      </button>
      <FieldError id={id} error={errors.of(path)} />
    </fieldset>
  );
}
