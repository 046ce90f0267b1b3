import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

let dialogs = 0;

/**
 * Asks before what cannot be undone or fans out, saying what it will do: a modal `alertdialog` with a
 * labelled heading and the effect as its description. Focus moves to Cancel (the harmless choice) and,
 * when the dialog closes, back to what had it (the page's title when that is gone); Escape cancels.
 * `onConfirm` runs the action (its outcome is shown beside the control that opened the dialog), then
 * the dialog closes.
 */
export function ConfirmDialog({
  title,
  confirm,
  onConfirm,
  onClose,
  opener,
  children,
}: {
  title: string;
  /** What gets the focus back, when the control that opened it lost it meanwhile (a button disabled while it read). */
  opener?: { current: HTMLElement | null };
  /** The confirming button's words: the action and what it acts on (`Delete relayer r-1`). */
  confirm: string;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
  children: ComponentChildren;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const [id] = useState(() => `confirm-${++dialogs}`);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const active = document.activeElement;
    const from = active instanceof HTMLElement && active !== document.body ? active : null;
    const shown = dialog.current;
    if (shown !== null && !shown.open) shown.showModal();
    cancel.current?.focus();
    return () => {
      if (shown?.open) shown.close();
      const back = [opener?.current ?? null, from].find((el) => el?.isConnected === true);
      (back ?? document.querySelector<HTMLElement>('main h1'))?.focus();
    };
  }, []);
  const run = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      onClose();
    }
  };
  return (
    <dialog
      ref={dialog}
      class="confirm"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-effect`}
      onCancel={(event) => {
        // Escape: the dialog is closed by its owner, which unmounts it.
        event.preventDefault();
        if (!busy) onClose();
      }}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <div id={`${id}-effect`} class="effect">
        {children}
      </div>
      <div class="actions">
        <button type="button" class="danger" disabled={busy} onClick={() => void run()}>
          {confirm}
        </button>
        <button type="button" ref={cancel} disabled={busy} onClick={onClose}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
