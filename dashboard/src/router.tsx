import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/dashboard';

/** The dashboard path after /dashboard ("/logs/req_..."). */
export function currentPath(): string {
  const p = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '/';
  return p === '' ? '/' : p;
}

export function navigate(path: string): void {
  history.pushState(null, '', `${BASE}${path}`);
  dispatchEvent(new PopStateEvent('popstate'));
}

export function usePath(): string {
  const [path, setPath] = useState(currentPath());
  useEffect(() => {
    const onPop = () => setPath(currentPath());
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);
  return path;
}

/** An in-app link: a real href (open in a new tab works), client-side navigation on click. */
export function Link(props: { to: string; children: ComponentChildren; class?: string }): JSX.Element {
  return (
    <a
      href={`${BASE}${props.to}`}
      class={props.class}
      onClick={(e) => {
        if (!e.ctrlKey && !e.metaKey && !e.shiftKey && e.button === 0) {
          e.preventDefault();
          navigate(props.to);
        }
      }}
    >
      {props.children}
    </a>
  );
}
