import { useSearch } from 'wouter';

/** /myiframe/:routerPath?src=…: an external page inside the console. */
export default function IframePage() {
  const src = new URLSearchParams(useSearch()).get('src') ?? '';
  const safe = /^(https?:\/\/|\/)/i.test(src) ? src : 'about:blank';
  return <iframe className="vg-iframe" src={safe} title={src} />;
}
