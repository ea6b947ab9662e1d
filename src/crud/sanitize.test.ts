import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitize';

describe('sanitizeHtml', () => {
  it('keeps formatting, links and images with safe addresses', () => {
    const html = '<p><b>粗</b> <a href="https://x.test/a" title="t">link</a><img src="/img/a.png" alt="a"></p>';
    expect(sanitizeHtml(html)).toBe(html);
  });

  it('drops scripts, handlers, styles and unsafe addresses', () => {
    const out = sanitizeHtml('<p onclick="x()" style="color:red">a<script>alert(1)</script><a href="javascript:alert(1)">b</a><object data="x"></object><embed src="y"><img src="x" onerror="y"></p>');
    expect(out).toBe('<p>a<a>b</a><img></p>');
  });

  it('unwraps unknown elements but keeps their text, also when nested', () => {
    expect(sanitizeHtml('<font color="red"><marquee><b>hi</b><script>x</script></marquee></font>')).toBe('<b>hi</b>');
  });
});
