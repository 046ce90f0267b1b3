import { PageTitle } from '../components';

/** A page not built yet: replaced by its own file. */
export function Placeholder({ title }: { title: string }) {
  return (
    <>
      <PageTitle>{title}</PageTitle>
      <p class="state empty">This page is not built yet.</p>
    </>
  );
}
