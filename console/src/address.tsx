import { useRef, useState } from 'preact/hooks';
import { shortenMiddle } from './text';

/**
 * An address in monospace: whole on a wide screen, cut in its middle on a narrow one (the whole
 * value stays in its title and for screen readers), with a button that copies the whole value.
 */
export function Address({ value, of }: { value: string; of: string }) {
  const short = shortenMiddle(value);
  const whole = useRef<HTMLSpanElement>(null);
  const [said, setSaid] = useState('');
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(value);
      setSaid('Address copied.');
    } catch {
      // Plain HTTP away from localhost has no clipboard API: the whole address is selected instead.
      const selection = window.getSelection();
      if (whole.current && selection) {
        const range = document.createRange();
        range.selectNodeContents(whole.current);
        selection.removeAllRanges();
        selection.addRange(range);
      }
      setSaid('Address selected: press Ctrl+C (⌘C on a Mac) to copy it.');
    }
  };
  return (
    <span class={`address-cell${short === value ? '' : ' shortened'}`}>
      <span class="mono address-whole" title={value} ref={whole}>
        {value}
      </span>
      {short !== value && (
        <span class="mono address-short" title={value} aria-hidden="true">
          {short}
        </span>
      )}{' '}
      <button type="button" class="copy" onClick={() => void copy()}>
        Copy<span class="visually-hidden"> the address of {of}</span>
      </button>
      <span class="visually-hidden" role="status">
        {said}
      </span>
    </span>
  );
}
